import PlaceModel
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

    package private(set) var infos: [Info] = []
    package private(set) var partCounts: [UInt16] = []
    package private(set) var coordinates: [Float] = []

    package var count: Int { infos.count }

    /// Appends a shape; returns its index.
    @discardableResult
    package mutating func append(_ shape: FootprintShape) -> Int32 {
        let b = shape.bounds
        infos.append(Info(kind: shape.kind, firstPart: Int32(partCounts.count), partCount: Int32(shape.partCounts.count),
                          firstVertex: Int32(coordinates.count / 2), vertexCount: Int32(shape.vertexCount),
                          size: shape.kind == .area ? shape.area : shape.length, reach: shape.reach,
                          west: Float(b.west), east: Float(b.east), south: Float(b.south), north: Float(b.north)))
        partCounts.append(contentsOf: shape.partCounts)
        coordinates.append(contentsOf: shape.coordinates)
        return Int32(infos.count - 1)
    }

    /// p(fix | visitor uniformly in shape `i`), per m², the place's
    /// location lying `east`, `north` meters from the fix.
    package func density(_ i: Int, east: Double, north: Double, sigma: Double) -> Double {
        let info = infos[i]
        guard info.size > 0 else { return 0 }
        return coordinates.withUnsafeBufferPointer { c in
            partCounts.withUnsafeBufferPointer { p in
                let vertices = UnsafeBufferPointer(rebasing: c[2 * Int(info.firstVertex)..<2 * Int(info.firstVertex + info.vertexCount)])
                let parts = UnsafeBufferPointer(rebasing: p[Int(info.firstPart)..<Int(info.firstPart + info.partCount)])
                switch info.kind {
                case .area: return NormalShape.mass(vertices, parts, east: east, north: north, sigma: sigma) / info.size
                case .lines: return NormalShape.lineIntegral(vertices, parts, east: east, north: north, sigma: sigma) / info.size
                }
            }
        }
    }

    /// Whether the point `east`, `north` meters from the place's location
    /// lies inside area `i` (even-odd over its rings, so holes are
    /// outside); false for lines.
    package func contains(_ i: Int, east: Double, north: Double) -> Bool {
        let info = infos[i]
        guard info.kind == .area, Float(east) >= info.west, Float(east) <= info.east,
              Float(north) >= info.south, Float(north) <= info.north else { return false }
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
        infos.capacity * MemoryLayout<Info>.stride + partCounts.capacity * 2 + coordinates.capacity * 4
    }
}
