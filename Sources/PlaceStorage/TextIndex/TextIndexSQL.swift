package import PlaceModel

/// The SQL of the text index (`place_text`, an FTS5 table): its schema
/// (migration 11), the view that says what text each place is found by, its
/// one-pass build and its typo vocabulary. Kept current by triggers on
/// `place`, set aside during a fresh import and replaced there by one
/// `rebuild` (`PlaceWriter.beginBulk`/`endBulk`).
package enum TextIndexSQL {
    /// The OpenStreetMap tags that name a place besides `name`.
    package static let osmNameTags = [
        "alt_name", "old_name", "official_name", "short_name", "loc_name", "int_name", "nat_name", "reg_name", "brand",
    ]
    /// The JSON paths of the first part of `otherNames`, key by key, in
    /// its order (`TextIndexRow`).
    package static let otherNamePaths: [[String]] =
        osmNameTags.map { ["osm", "tags", $0] } + [["overture", "brand", "names", "primary"]]

    /// The most localized names of a place indexed (more are not read).
    package static let maxLocalizedNames = 400

    /// A place's other names (`p` is its `place` row): its other
    /// OpenStreetMap names and brand as one JSON array text, its nulls
    /// taken out (`["Olympic Museum",,"Musée du CIO"]`), then its names in
    /// every language (`localizedNames`). No `json_each`: FTS5 cannot read
    /// an external-content view that uses a table-valued function ("SQL
    /// logic error").
    package static let otherNames = """
        replace(replace(json_extract(p.extra, \(otherNamePaths.map { "'$." + $0.joined(separator: ".") + "'" }.joined(separator: ", "))), '[null', '['), ',null', ',')
        || \(localizedNames)
        """

    /// The values of `extra.localizedNames` (every language: OpenStreetMap
    /// `name:xx`, Overture `names.common`, Google captures), each after a
    /// space, in their order; '' when there is none. The object is read
    /// member by member by a recursive query (not `json_each`, which FTS5
    /// refuses): the first member's key is the text between its first two
    /// quotes (`{"en":...`), its value read by that key, then the member
    /// removed. A key JSON escapes (a quote, a backslash, a control
    /// character) ends the reading, as does the `maxLocalizedNames`-th
    /// member; values that are not strings are skipped.
    /// `TextIndexRow.localizedText` gives the same text.
    package static let localizedNames = """
        (WITH RECURSIVE m(o, acc, n) AS (
            SELECT CASE WHEN json_type(p.extra, '$.localizedNames') = 'object' THEN json_extract(p.extra, '$.localizedNames') ELSE '{}' END, '', 0
            UNION ALL
            SELECT json_remove(o, '$."' || \(firstKey) || '"'),
                   acc || CASE WHEN json_type(o, '$."' || \(firstKey) || '"') = 'text' THEN ' ' || json_extract(o, '$."' || \(firstKey) || '"') ELSE '' END,
                   n + 1
            FROM m WHERE length(o) > 2 AND n < \(maxLocalizedNames) AND instr(\(firstKey), '\\') = 0
        ) SELECT acc FROM m ORDER BY n DESC LIMIT 1)
        """
    /// The key of the first member of the JSON object text `o`.
    private static let firstKey = #"substr(o, 3, instr(substr(o, 3), '"') - 1)"#
    /// A place's address.
    package static let address =
        #"CASE WHEN instr(p.doc, '"formattedAddress"') > 0 THEN json_extract(p.doc, '$.formattedAddress') END"#
    /// A place's type words: its primary type, then its types as a JSON
    /// array without the two every Google place has.
    package static let types = """
        trim(coalesce(p.primary_type, '') || ' ' || CASE WHEN instr(p.doc, '"types"') > 0 THEN coalesce(
            replace(replace(json_extract(p.doc, '$.types'), '"point_of_interest"', ''), '"establishment"', ''), '') ELSE '' END)
        """

    /// The prefix lengths (characters) FTS5 indexes besides the words
    /// (`prefix`): a prefix query of one of these lengths reads one list,
    /// where another merges the lists of every word it starts (migration
    /// 17). One letter only: two would add as much again to the index
    /// (23 MB at 1M places) for the two-letter prefixes, which the
    /// vocabulary's words or the other words' rows answer in a few
    /// milliseconds (docs/search.md).
    package static let prefixLengths = [1]

    /// Whether a prefix query for `prefix` (folded) reads the index's own
    /// list of that prefix (`prefixLengths`).
    package static func indexesPrefix(_ prefix: String) -> Bool {
        prefixLengths.contains(prefix.unicodeScalars.count)
    }

    /// BM25 column weights: name, other names, address, types, cell.
    package static let bm25 = "bm25(place_text, 10.0, 5.0, 1.0, 3.0, 0.0)"

    /// Migration 11: `text_cell` on `place`, then the index (`create`). The
    /// view's expressions are frozen with the migration: change them with a
    /// new one that drops and re-creates the view.
    package static let migration = """
        -- What each live place is found by: its name, its other names (a JSON
        -- array), address, type words and grid cells (f: 0.01 degree, k: 0.1
        -- degree, so that a search near a point reads the places around it
        -- first).
        -- Migration 9 edited place's CREATE text in sqlite_master (BIGINT):
        -- the connection that ran it still holds the old parse, whose
        -- offsets ALTER TABLE ADD COLUMN would use ("near INTEGER: syntax
        -- error"). Re-read the schema first.
        PRAGMA writable_schema = RESET;
        -- The fine grid cell of the place's location, row * 100000 + column,
        -- as the writer computes it (TextGrid.key).
        ALTER TABLE place ADD COLUMN text_cell INTEGER;
        UPDATE place SET text_cell = CAST((ST_Y(geom) + 90) * 100 AS INTEGER) * 100000 + CAST((ST_X(geom) + 180) * 100 AS INTEGER);

        \(create)
        """

    /// The text index, its view, typo vocabulary and triggers, built from
    /// `place` in one pass: what migration 11 creates, and what
    /// `placedb text-index build` creates again after `drop`. The golden
    /// schema (Schemas/) holds its text.
    package static let create = """
        CREATE VIEW place_text_source AS
        SELECT p.id AS id,
               p.name AS name,
               \(otherNames) AS other_names,
               \(address) AS address,
               \(types) AS types,
               \(mark) || 'f' || (p.text_cell / 100000) || 'x' || (p.text_cell % 100000)
                   || ' ' || \(mark) || 'k' || (p.text_cell / 100000 / 10) || 'x' || (p.text_cell % 100000 / 10) AS cell
        FROM place p WHERE p.removed_run IS NULL;

        -- The text index: Unicode-aware, case- and diacritics-insensitive
        -- ("cafe" finds "Café"). Its text is not stored twice: FTS5 reads it
        -- from place_text_source (external content, rowid = place.id), and
        -- the triggers below tell it each change, with the text it had
        -- indexed. Removed places are not in it. The words' first letters are
        -- indexed too (prefix), so that autocomplete's "Bookshop S" reads one
        -- list for "s*" instead of merging every s-word's.
        CREATE VIRTUAL TABLE place_text USING fts5(name, other_names, address, types, cell,
            content = 'place_text_source', content_rowid = 'id', \(tokenizing));
        CREATE VIRTUAL TABLE place_text_vocab USING fts5vocab(place_text, row);

        -- The index's words, forwards and backwards, for typo correction:
        -- a word one or two edits from a typed one shares the first or the
        -- last part of its letters with it.
        CREATE TABLE place_word (
            word TEXT PRIMARY KEY,
            reversed TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX place_word_by_reversed ON place_word(reversed);

        \(countTables)

        INSERT INTO place_text (place_text) VALUES ('rebuild');
        \(refreshWords);

        CREATE TRIGGER place_text_insert AFTER INSERT ON place WHEN NEW.removed_run IS NULL
        BEGIN
            INSERT INTO place_text (rowid, name, other_names, address, types, cell) SELECT * FROM place_text_source WHERE id = NEW.id;
        END;

        CREATE TRIGGER place_text_unindex BEFORE UPDATE OF name, primary_type, doc, extra, text_cell, removed_run ON place
        WHEN \(changed)
        BEGIN
            INSERT INTO place_text (place_text, rowid, name, other_names, address, types, cell) SELECT 'delete', * FROM place_text_source WHERE id = OLD.id;
        END;

        CREATE TRIGGER place_text_update AFTER UPDATE OF name, primary_type, doc, extra, text_cell, removed_run ON place
        WHEN \(changed)
        BEGIN
            INSERT INTO place_text (rowid, name, other_names, address, types, cell) SELECT * FROM place_text_source WHERE id = NEW.id;
        END;

        CREATE TRIGGER place_text_delete BEFORE DELETE ON place
        BEGIN
            INSERT INTO place_text (place_text, rowid, name, other_names, address, types, cell) SELECT 'delete', * FROM place_text_source WHERE id = OLD.id;
        END;
        """

    /// The index taken away and made again from `place` (`drop`, then
    /// `create`), its segments then merged into one as a fresh import and
    /// `placedb text-index build` leave them (`optimize`): migrations 15,
    /// 17 and 18. A rebuild leaves many segments, and every query reads
    /// each word's list in each of them: on the 10M search bench's
    /// database migrated to version 18 without it, exact-name searches
    /// took 1.5 times as long.
    package static let remake = drop + "\n" + create + "\n" + optimize + ";"

    /// The index's triggers, in the order `create` makes them.
    package static let triggers = ["place_text_insert", "place_text_unindex", "place_text_update", "place_text_delete"]

    /// Takes the whole index away: triggers first (no write after this one
    /// keeps it), then its tables and view. `place.text_cell` stays (the
    /// writer keeps it, so `create` can index every place again).
    package static let drop =
        triggers.map { "DROP TRIGGER IF EXISTS \($0);" }.joined(separator: "\n") + """

            DROP TABLE IF EXISTS place_text_vocab;
            DROP TABLE IF EXISTS place_text;
            DROP VIEW IF EXISTS place_text_source;
            DROP TABLE IF EXISTS place_word;
            DROP TABLE IF EXISTS place_text_count;
            DROP TABLE IF EXISTS place_text_counted;
            """

    /// The stored counts of common phrases (`placedb text-index analyze`),
    /// empty until it runs: part of `create`, and migration 19.
    package static let countTables = """
        CREATE TABLE IF NOT EXISTS place_text_count (
            -- How many places hold each common word ("museo") and word
            -- prefix ("ha" *) of the index, as placedb text-index analyze
            -- counted them: BM25 weighs each phrase by that number, and
            -- counting a common one reads its whole list (at 10M places,
            -- "s" * 228 ms on every new connection). Phrases held by fewer
            -- places than the analysis' threshold are counted when asked.
            -- Used only while place_text_counted holds the index's state.
            phrase TEXT PRIMARY KEY,
            places INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS place_text_counted (
            -- One row: the state the counts hold for. FTS5's structure and
            -- averages records (place_text_data rows 10 and 1; every write
            -- to the index changes the first): a reader uses the counts
            -- only while both are the same; else it counts, as without
            -- them. place_generation.n and max(place.id) when they were
            -- counted, or carried through an import, for the record. No
            -- row: never analyzed.
            id INTEGER PRIMARY KEY CHECK (id = 1),
            structure BLOB NOT NULL,
            averages BLOB,
            generation INTEGER NOT NULL,
            max_place INTEGER
        );
        """

    /// How `place_text` splits and folds words, and its prefix lists:
    /// `create`'s, and the temp tables `carriedTables` counts changed
    /// places in.
    private static let tokenizing = """
        tokenize = 'unicode61 remove_diacritics 2', prefix = '\(prefixLengths.map(String.init).joined(separator: " "))'
        """

    // Carrying the counts through an import (`TextCountCarry`).

    /// Notes, in the temp table `place_text_old`, each place at or below
    /// row `maxPlace` that this connection changes in a way the index sees
    /// (a change to a column `place_text_source` reads, a deletion, an
    /// insert below the row): the first time, the columns the view reads
    /// as they were, and whether the index held it (`indexed`: it was not
    /// removed; a row inserted below `maxPlace` was not there). A plain
    /// copy of the row's columns: the view is evaluated on them once, at
    /// the end (`fillGone`).
    static func carryTriggers(maxPlace: Int64) -> String {
        let capture = """
            INSERT OR IGNORE INTO place_text_old (id, name, primary_type, doc, extra, indexed)
                VALUES (OLD.id, OLD.name, OLD.primary_type, OLD.doc, OLD.extra, OLD.removed_run IS NULL);
            """
        return """
            CREATE TEMP TABLE place_text_old (id INTEGER PRIMARY KEY, name, primary_type, doc, extra, indexed INTEGER NOT NULL);
            CREATE TEMP TRIGGER place_text_carry_update
                BEFORE UPDATE OF name, primary_type, doc, extra, text_cell, removed_run ON main.place
                WHEN OLD.id <= \(maxPlace) AND (\(changed))
            BEGIN
                \(capture)
            END;
            CREATE TEMP TRIGGER place_text_carry_delete BEFORE DELETE ON main.place WHEN OLD.id <= \(maxPlace)
            BEGIN
                \(capture)
            END;
            CREATE TEMP TRIGGER place_text_carry_insert AFTER INSERT ON main.place WHEN NEW.id <= \(maxPlace)
            BEGIN
                INSERT OR IGNORE INTO place_text_old (id, indexed) VALUES (NEW.id, 0);
            END;
            """
    }
    static let dropCarry = """
        DROP TRIGGER IF EXISTS temp.place_text_carry_update;
        DROP TRIGGER IF EXISTS temp.place_text_carry_delete;
        DROP TRIGGER IF EXISTS temp.place_text_carry_insert;
        DROP TABLE IF EXISTS temp.place_text_old;
        DROP TABLE IF EXISTS temp.place_text_added;
        DROP TABLE IF EXISTS temp.place_text_gone;
        """
    /// The text now indexed of the places past row `?1` and of those
    /// changed (`place_text_added`), and the text the index held of the
    /// changed ones before (`place_text_gone`), each indexed as
    /// `place_text` indexes it (its tokenizer and prefixes; no text kept).
    /// Only which places hold a word matters there, so they keep no
    /// positions or column sizes (`detail = none`: a one-word phrase and a
    /// prefix match as in `place_text`), and not the grid cells' words
    /// (no stored phrase is one).
    static let carriedTables = """
        CREATE VIRTUAL TABLE temp.place_text_added USING fts5(
            name, other_names, address, types, content = '', detail = none, columnsize = 0, \(tokenizing));
        CREATE VIRTUAL TABLE temp.place_text_gone USING fts5(
            name, other_names, address, types, content = '', detail = none, columnsize = 0, \(tokenizing));
        """
    static let fillAdded = """
        INSERT INTO temp.place_text_added (rowid, name, other_names, address, types)
        SELECT id, name, other_names, address, types FROM place_text_source
        WHERE id > ?1 OR id IN (SELECT id FROM temp.place_text_old)
        """
    /// `place_text_source`'s text columns, read from the columns captured.
    static let fillGone = """
        INSERT INTO temp.place_text_gone (rowid, name, other_names, address, types)
        SELECT p.id, p.name AS name, \(otherNames), \(address), \(types) FROM temp.place_text_old p WHERE p.indexed
        """
    /// The rows of `place_text` past row `?1` or changed (`fillAdded`'s).
    static let indexedAdded = """
        SELECT count(*) FROM place_text_docsize WHERE id > ?1 OR id IN (SELECT id FROM temp.place_text_old)
        """
    /// How many of the places now (`place_text_added`) and before
    /// (`place_text_gone`) hold `?1`.
    static let addedCount = "SELECT count(*) FROM temp.place_text_added WHERE place_text_added MATCH ?1"
    static let goneCount = "SELECT count(*) FROM temp.place_text_gone WHERE place_text_gone MATCH ?1"
    static let storedPhrases = "SELECT phrase FROM place_text_count"
    static let addToCount = "UPDATE place_text_count SET places = places + ?2 WHERE phrase = ?1"

    /// The index's state the stored counts are compared with (FTS5's
    /// structure and averages records).
    package static let countedState = "SELECT " + indexState
    private static let indexState =
        "(SELECT block FROM place_text_data WHERE id = 10), (SELECT block FROM place_text_data WHERE id = 1)"
    /// Stores the state the counts now hold for (`countedState`, and for
    /// the record `place_generation.n` and the largest place row), over
    /// any stored before.
    package static let storeCountedState = """
        INSERT OR REPLACE INTO place_text_counted (id, structure, averages, generation, max_place)
        SELECT 1, \(indexState), (SELECT n FROM place_generation WHERE id = 1), (SELECT max(id) FROM place)
        """
    /// The state the stored counts hold for (no row: never analyzed).
    package static let storedCountedState = "SELECT structure, averages FROM place_text_counted WHERE id = 1"
    /// Whether `place_text_counted` is there (migration 19, where the index is).
    package static let countedTableExists =
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'place_text_counted'"
    /// One stored count.
    package static let storedCount = "SELECT places FROM place_text_count WHERE phrase = ?1"
    /// One count stored (`PlaceStore.analyzeTextIndex`).
    package static let insertCount = "INSERT INTO place_text_count (phrase, places) VALUES (?1, ?2)"
    /// The stored counts and their state taken away, before new ones.
    package static let clearCounts = "DELETE FROM place_text_count; DELETE FROM place_text_counted"
    /// The index's words with the number of places holding each, in order
    /// (cells included).
    package static let wordCounts = "SELECT term, doc FROM place_text_vocab"

    /// Whether the index is there (`place_text` in the schema).
    package static let exists = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'place_text'"

    /// A change to a column `place_text_source` reads.
    private static let changed = """
        OLD.removed_run IS NOT NEW.removed_run OR OLD.name IS NOT NEW.name OR OLD.primary_type IS NOT NEW.primary_type \
        OR OLD.doc IS NOT NEW.doc OR OLD.extra IS NOT NEW.extra OR OLD.text_cell IS NOT NEW.text_cell
        """

    /// Builds the index from `place_text_source` in one pass (a fresh
    /// import, with the triggers set aside).
    package static let rebuild = "INSERT INTO place_text (place_text) VALUES ('rebuild')"
    /// Merges the index's segments into one (the end of a fresh import).
    package static let optimize = "INSERT INTO place_text (place_text) VALUES ('optimize')"

    /// Adds the index's new words to `place_word` (not the grid cells),
    /// each with its letters reversed (`substr` counts characters).
    package static let refreshWords = """
        WITH RECURSIVE fresh(word) AS (
            SELECT term FROM place_text_vocab
            WHERE term NOT GLOB \(mark) || '[fk][0-9]*x[0-9]*' AND NOT EXISTS (SELECT 1 FROM place_word WHERE word = term)
        ), backwards(word, rest, acc) AS (
            SELECT word, word, '' FROM fresh
            UNION ALL
            SELECT word, substr(rest, 2), substr(rest, 1, 1) || acc FROM backwards WHERE rest <> ''
        )
        INSERT OR IGNORE INTO place_word (word, reversed) SELECT word, acc FROM backwards WHERE rest = ''
        """

    /// `TextGrid.mark` in SQL: the first character of every grid cell's
    /// word.
    static let mark = "char(\(TextGrid.mark.unicodeScalars.first!.value))"

    /// Whether `word` is one `refreshWords` leaves out of the typo
    /// vocabulary, by its GLOB `TextGrid.mark` then `[fk][0-9]*x[0-9]*`
    /// (`f`/`k`, a digit, then an `x` followed by a digit): every grid
    /// cell's word (`f13652x18663`, `k1365x1866` after the mark) is one.
    /// The import's word pass (`TextIndexWriter`) leaves out the same
    /// words, and a query term that is one may match the `cell` column
    /// (`TextMatchExpression.mayMatchCell`).
    static func isCellWord(_ word: String) -> Bool {
        let mark = TextGrid.markUTF8
        let u = Array(word.utf8)
        guard u.count >= mark.count + 4, u.starts(with: mark) else { return false }
        let f = mark.count
        guard u[f] == UInt8(ascii: "f") || u[f] == UInt8(ascii: "k"), (0x30...0x39).contains(u[f + 1]) else {
            return false
        }
        for i in (f + 2)..<(u.count - 1) where u[i] == UInt8(ascii: "x") && (0x30...0x39).contains(u[i + 1]) {
            return true
        }
        return false
    }

    /// Every word of the index, once each, in order (cells included).
    package static let indexWords = "SELECT term FROM place_text_vocab"
    /// One place's row, as `TextIndexRow` computes it (a fresh import).
    package static let insertRow =
        "INSERT INTO place_text (rowid, name, other_names, address, types, cell) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    /// One word of the typo vocabulary, with its letters reversed.
    package static let insertWord = "INSERT OR IGNORE INTO place_word (word, reversed) VALUES (?1, ?2)"

    /// `bm25` with the number of places holding each phrase given in `?2`
    /// (`Database.registerCountedBM25`): the same score, without counting
    /// them on every query.
    package static let countedBM25 = "bm25_counted(place_text, ?2, 10.0, 5.0, 1.0, 3.0, 0.0)"
    /// `countedBM25` as if the expression also held `"?4" *` (`?5`: the
    /// number of places holding a word with that prefix), read from each
    /// matched row's text columns (`Database.registerCountedBM25`); NULL
    /// for a row without such a word.
    /// The text columns are given from `place_text_source` (`s`, joined).
    package static let prefixedBM25 = """
        bm25_prefixed(place_text, ?2, ?4, ?5, 4, s.name, s.other_names, s.address, s.types, 10.0, 5.0, 1.0, 3.0, 0.0)
        """
    /// What a candidate is ranked by first (no JSON read): the matched row
    /// `p`'s name (the text that matched), and the answered row's point,
    /// other names, ratings and type. The answered row is `p` itself, or
    /// in the merged view its group's canonical row `c` (`LEFT JOIN place c
    /// ON c.id = p.group_id`): the place answered is filtered, ranked and
    /// measured where it is, with its own rating, not its member's.
    private static func candidateColumns(_ view: RecordView) -> String {
        guard view == .merged else {
            return "p.geom, p.name, p.extra IS NOT NULL, p.rating_count, p.primary_type, p.rating"
        }
        return ["geom", "name", "extra IS NOT NULL", "rating_count", "primary_type", "rating"].map { column in
            column == "name" ? "p.name" : "CASE WHEN c.id IS NULL THEN p.\(column) ELSE c.\(column) END"
        }.joined(separator: ", ")
    }
    /// The canonical row of a match's group (merged view), for
    /// `candidateColumns`.
    private static func canonicalJoin(_ view: RecordView) -> String {
        view == .merged ? " LEFT JOIN place c ON c.id = p.group_id" : ""
    }
    /// rowid and weighted BM25 of the `?3` best places matching `?1` by
    /// BM25, ties by rowid (`?2`: the phrase counts; `?3` -1: all), each
    /// with its candidate columns: the match is limited first, then joined.
    /// (The merged view answers a group's member as its canonical row:
    /// `matchedRow`.)
    /// With `prefixed`, scored by `prefixedBM25` and only the rows holding
    /// a word with the prefix `?4`.
    package static func bestMatches(_ view: RecordView, prefixed: Bool = false) -> String {
        switch (view, prefixed) {
        case (.merged, false): bestMatchesMerged
        case (.unmerged, false): bestMatchesUnmerged
        case (.merged, true): bestPrefixedMatchesMerged
        case (.unmerged, true): bestPrefixedMatchesUnmerged
        }
    }
    private static let bestMatchesMerged = bestMatchesSQL(.merged)
    private static let bestMatchesUnmerged = bestMatchesSQL(.unmerged)
    private static let bestPrefixedMatchesMerged = bestMatchesSQL(.merged, prefixed: true)
    private static let bestPrefixedMatchesUnmerged = bestMatchesSQL(.unmerged, prefixed: true)
    private static func bestMatchesSQL(_ view: RecordView, prefixed: Bool = false) -> String {
        """
        SELECT \(matchedRow(view)), m.score, \(candidateColumns(view)) FROM (
            \(scored(prefixed, then: "ORDER BY score, \(prefixed ? "id" : "rowid") LIMIT ?3"))
        ) m JOIN place p ON p.id = m.id\(canonicalJoin(view))
        """
    }
    /// The rowid (`id`) and score of the rows matching `?1`, then `tail`.
    /// Prefixed, the rows without the prefix (a NULL score) are left out
    /// before `tail` counts them; the inner query's `LIMIT -1` keeps SQLite
    /// from moving that test into it, which would call the function twice
    /// a row.
    private static func scored(_ prefixed: Bool, then tail: String) -> String {
        guard prefixed else {
            return "SELECT rowid AS id, \(countedBM25) AS score FROM place_text WHERE place_text MATCH ?1 \(tail)"
        }
        return """
            SELECT id, score FROM (
                SELECT place_text.rowid AS id, \(prefixedBM25) AS score
                FROM place_text JOIN place_text_source s ON s.id = place_text.rowid WHERE place_text MATCH ?1 LIMIT -1
            ) WHERE score IS NOT NULL \(tail)
            """
    }
    /// The first `?3` places matching `?1` in rowid order (no sort: FTS5
    /// stops there), with their weighted BM25 (`?2`: the phrase counts),
    /// candidate columns and fine grid cell (`text_cell`).
    /// (`prefixed`: as in `bestMatches`.)
    package static func firstMatches(_ view: RecordView, prefixed: Bool = false) -> String {
        switch (view, prefixed) {
        case (.merged, false): firstMatchesMerged
        case (.unmerged, false): firstMatchesUnmerged
        case (.merged, true): firstPrefixedMatchesMerged
        case (.unmerged, true): firstPrefixedMatchesUnmerged
        }
    }
    private static let firstMatchesMerged = firstMatchesSQL(.merged)
    private static let firstMatchesUnmerged = firstMatchesSQL(.unmerged)
    private static let firstPrefixedMatchesMerged = firstMatchesSQL(.merged, prefixed: true)
    private static let firstPrefixedMatchesUnmerged = firstMatchesSQL(.unmerged, prefixed: true)
    private static func firstMatchesSQL(_ view: RecordView, prefixed: Bool = false) -> String {
        """
        SELECT \(matchedRow(view)), m.score, \(candidateColumns(view)), p.text_cell FROM (
            \(scored(prefixed, then: "LIMIT ?3"))
        ) m JOIN place p ON p.id = m.id\(canonicalJoin(view))
        """
    }
    /// The row a match answers as: its group's canonical row when merged.
    private static func matchedRow(_ view: RecordView) -> String { view == .merged ? "coalesce(c.id, m.id)" : "m.id" }
    /// FTS5's index as its instances (word, rowid, column, offset; in
    /// word, then rowid order), for `WordLists.build`.
    package static let createInstanceVocabulary =
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.place_text_instance USING fts5vocab(main, place_text, instance)"
    package static let dropInstanceVocabulary = "DROP TABLE IF EXISTS temp.place_text_instance"
    package static let instances = "SELECT term, doc, col FROM temp.place_text_instance"
    /// A matched place's row and candidate columns (`WordListQuery`'s
    /// matches, as `bestMatches` joins them), then its `text_cell`.
    package static func matchedCandidate(_ view: RecordView) -> String {
        view == .merged ? matchedCandidateMerged : matchedCandidateUnmerged
    }
    private static let matchedCandidateMerged = matchedCandidateSQL(.merged)
    private static let matchedCandidateUnmerged = matchedCandidateSQL(.unmerged)
    private static func matchedCandidateSQL(_ view: RecordView) -> String {
        """
        SELECT \(view == .merged ? "coalesce(c.id, p.id)" : "p.id"), \(candidateColumns(view)), p.text_cell
        FROM place p\(canonicalJoin(view)) WHERE p.id = ?1
        """
    }
    /// How many places match `?1` (one phrase in the text columns, or grid cells).
    package static let phraseCount = "SELECT count(*) FROM place_text WHERE place_text MATCH ?1"
    /// A candidate's other names, when they may change its rank: the array
    /// of `otherNames`, and its localized names (JSON).
    package static let otherNamesOfRow = """
        SELECT replace(replace(json_extract(p.extra, \(otherNamePaths.map { "'$." + $0.joined(separator: ".") + "'" }.joined(separator: ", "))), '[null', '['), ',null', ','),
               json_extract(p.extra, '$.localizedNames')
        FROM place p WHERE p.id = ?1
        """
    /// What an autocomplete suggestion shows.
    package static let suggestion =
        "SELECT p.place_id, json_extract(p.doc, '$.types'), \(address) FROM place p WHERE p.id = ?1"
    package static let wordExists = "SELECT 1 FROM place_word WHERE word = ?1"
    /// The words starting with `?1`, at most `?2` of them.
    package static let wordsStartingWith =
        "SELECT word FROM place_word WHERE word >= ?1 AND word < ?1 || char(1114111) LIMIT ?2"
    /// Words starting with `?1` (a prefix) of `?2`...`?3` characters.
    package static let wordsByPrefix = """
        SELECT word FROM place_word WHERE word >= ?1 AND word < ?1 || char(1114111) AND length(word) BETWEEN ?2 AND ?3 LIMIT 500
        """
    /// Words ending with reversed `?1` of `?2`...`?3` characters.
    package static let wordsBySuffix = """
        SELECT word FROM place_word WHERE reversed >= ?1 AND reversed < ?1 || char(1114111) AND length(word) BETWEEN ?2 AND ?3 LIMIT 500
        """
}
