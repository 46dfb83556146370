/// The footprint shapes of an index, packed in a few flat arrays (no
/// allocation per shape): shape i is `infos[i]`, its parts' vertex counts
/// and its vertices slices of the shared arrays.
package struct ShapeTable {
    package struct Info {
        package var kind: FootprintShape.Kind
        package var firstPart: Int32
        package var partCount: Int32
        /// The first vertex (index into `coordinates` / 2).
        package var firstVertex: Int32
        package var vertexCount: Int32
        /// Area (m²) of an area, length (m) of lines.
        package var size: Double
        /// The farthest vertex from the place's location, meters.
        package var reach: Double
        /// The vertices' box, meters from the place's location.
        package var west: Float, east: Float, south: Float, north: Float
    }

    package private(set) var infos = Column<Info>()
    package private(set) var partCounts = Column<UInt16>()
    package private(set) var coordinates = Column<Float>()

    package var count: Int { infos.count }

    package init() {}

    /// A table over columns read elsewhere (the stored spatial index).
    package init(infos: Column<Info>, partCounts: Column<UInt16>, coordinates: Column<Float>) {
        self.infos = infos
        self.partCounts = partCounts
        self.coordinates = coordinates
    }

    /// Appends a shape; returns its index.
    @discardableResult
    package mutating func append(_ shape: FootprintShape) -> Int32 {
        let b = shape.bounds
        infos.append(
            Info(
                kind: shape.kind, firstPart: Int32(partCounts.count), partCount: Int32(shape.partCounts.count),
                firstVertex: Int32(coordinates.count / 2), vertexCount: Int32(shape.vertexCount),
                size: shape.kind == .area ? shape.area : shape.length, reach: shape.reach,
                west: Float(b.west), east: Float(b.east), south: Float(b.south), north: Float(b.north)))
        partCounts.append(contentsOf: shape.partCounts)
        coordinates.append(contentsOf: shape.coordinates)
        return Int32(infos.count - 1)
    }

    /// Shape `i`'s info. Readers in other modules call this rather than
    /// `infos[i]`: `Column`'s subscript is generic there (Column.swift),
    /// this function is compiled here for `Info`.
    package func info(_ i: Int) -> Info { infos[i] }

    /// Shape `i` as a value of its own.
    package func shape(_ i: Int) -> FootprintShape {
        let info = infos[i]
        return FootprintShape(
            kind: info.kind,
            partCounts: Array(partCounts[Int(info.firstPart)..<Int(info.firstPart + info.partCount)]),
            coordinates: Array(coordinates[2 * Int(info.firstVertex)..<2 * Int(info.firstVertex + info.vertexCount)]))
    }

    /// Whether the point `east`, `north` meters from the place's location
    /// lies inside area `i` (even-odd over its rings, so holes are
    /// outside); false for lines.
    package func contains(_ i: Int, east: Double, north: Double) -> Bool {
        let info = infos[i]
        guard info.kind == .area, Float(east) >= info.west, Float(east) <= info.east,
            Float(north) >= info.south, Float(north) <= info.north
        else { return false }
        var inside = false
        var v = 2 * Int(info.firstVertex)
        for part in Int(info.firstPart)..<Int(info.firstPart + info.partCount) {
            let n = Int(partCounts[part])
            var j = n - 1
            for k in 0..<n {
                let ax = Double(coordinates[v + 2 * k]), ay = Double(coordinates[v + 2 * k + 1])
                let bx = Double(coordinates[v + 2 * j]), by = Double(coordinates[v + 2 * j + 1])
                if (ay > north) != (by > north) && east < (bx - ax) * (north - ay) / (by - ay) + ax { inside.toggle() }
                j = k
            }
            v += 2 * n
        }
        return inside
    }

    package var byteCount: Int {
        infos.byteCount + partCounts.byteCount + coordinates.byteCount
    }
}
