import SQLiteDB

extension Schema {
    /// The date of the data a run brought (docs/diff.md): a snapshot's
    /// removals and alias edges are dated by its data, not by the clock of
    /// the import.
    static let dataTimeMigration = Migration(
        version: 14, name: "import runs: the date of the data they brought",
        sql: """
            -- The date of the data the run brought (RFC 3339, UTC): import
            -- --captured-at, else the newest capture time its records carry (an
            -- OSM export's newest @timestamp); for a snapshot's completion, the
            -- newest of its inputs'. When a removal or an alias edge of the run
            -- happened (resolve's removedAt and recordedAt, export, diff); NULL:
            -- nothing dated the data (started_at stands).
            ALTER TABLE import_run ADD COLUMN data_time TEXT;
            """)
}
