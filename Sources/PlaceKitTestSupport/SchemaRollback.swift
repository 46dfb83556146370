/// SQL that undoes recent migrations, for tests that roll a fresh database
/// back to an older schema version and check the migrations from there.
public enum SchemaRollback {
    /// Undoes migration 16 (`place_generation` and its triggers); run it
    /// first, before undoing the columns its triggers name.
    public static let indexGeneration = """
        DROP TRIGGER place_generation_update; DROP TRIGGER place_generation_delete;
        DROP TRIGGER place_generation_footprint_insert; DROP TRIGGER place_generation_footprint_update;
        DROP TRIGGER place_generation_footprint_delete; DROP TABLE place_generation;
        """
}
