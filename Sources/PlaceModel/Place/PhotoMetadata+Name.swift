extension PhotoMetadata {
    /// Metadata naming a photo, `places/{id}/photos/{reference}`, for
    /// `fetchPhoto` (size and attributions unknown).
    public init(name: String) {
        self.init(name: name, widthPx: nil, heightPx: nil, authorAttributions: [])
    }
}
