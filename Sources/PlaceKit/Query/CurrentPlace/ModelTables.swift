package import PlaceModel
package import PlaceStorage

/// The model's per-type and per-source numbers, by the index's codes: the
/// model's rules (`LikelihoodModel`'s type and source factors, container
/// types, footprint rule) looked up once per code rather than per place.
package struct ModelTables {
    package let typeFactor: [Double]
    /// Half the side of each type's square footprint (`LikelihoodModel.typeHalfSide`).
    let typeHalfSide: [Double]
    package let sourceFactor: [Double]
    /// Per type code: whether its places are containers (`LikelihoodModel.containerTypes`).
    package let isContainer: [Bool]

    package init(model: LikelihoodModel, types: Interner, sources: Interner) {
        isContainer = types.names.map { model.isContainer(IndexedType.primaryType($0)) }
        typeFactor = types.names.map { name in
            let indexed = IndexedType.decode(name)
            return model.typeFactor(indexed.primaryType, kind: indexed.kind)
        }
        typeHalfSide = types.names.map { model.typeHalfSide(IndexedType.primaryType($0)) }
        sourceFactor = sources.names.map { model.sourceFactor($0) }
    }

    /// The footprint an index keeps for a place: how far from its location
    /// a visitor may stand (`LikelihoodModel.extent`), and what the
    /// footprint is (`LikelihoodModel.footprintSource`). Nothing for a
    /// place no visitor can be at (`LikelihoodModel.canBeAt`).
    package func footprint(
        model: LikelihoodModel, type: UInt16, status: UInt8, latitude: Double, longitude: Double,
        viewport: GeoRect?, shapeReach: Double? = nil
    ) -> (extent: Double, from: FootprintSource) {
        guard
            LikelihoodModel.canBeAt(
                typeFactor: typeFactor[Int(type)], closedPermanently: status == StatusCode.closedPermanently.rawValue)
        else {
            return (0, .type)
        }
        let f = model.footprintSource(
            shapeReach: shapeReach, viewport: viewport, latitude: latitude, longitude: longitude)
        switch f.source {
        case .shape, .viewport: return (LikelihoodModel.extent(reach: f.reach), f.source)
        case .type: return (LikelihoodModel.extent(halfSide: typeHalfSide[Int(type)]), .type)
        }
    }
}
