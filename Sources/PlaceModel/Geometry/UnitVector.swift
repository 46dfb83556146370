#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point on the unit sphere (earth-centred, earth-fixed directions).
package struct UnitVector {
    package var x: Double
    package var y: Double
    package var z: Double

    package init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    package init(latitude: Double, longitude: Double) {
        let r = Earth.radiansPerDegree
        let p = latitude * r, l = longitude * r
        let c = cos(p)
        x = c * cos(l)
        y = c * sin(l)
        z = sin(p)
    }
}
