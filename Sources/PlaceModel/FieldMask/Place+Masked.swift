extension Place {
    /// This place with only the fields of `fields` in its document (the
    /// coordinate stays on the value).
    package func masked(_ fields: FieldMask) -> Place {
        if fields.isAll { return self }
        var copy = self
        var masked = fields.apply(to: document)
        masked["name"] = nil
        copy.document = masked
        return copy
    }
}
