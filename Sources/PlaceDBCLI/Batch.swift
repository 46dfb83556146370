import PlaceKit
import PlaceModel

/// `--batch`: NDJSON requests on standard input, one compact JSON answer
/// line per request line, in order. A bad line gets an error line (the
/// Google API error shape) in its place and the batch goes on; the exit code
/// is then 65. A database failure ends the batch (exit 1).
enum Batch {
    /// Lines that have arrived already are answered in groups of up to
    /// `groupSize` inside one `snapshot` (a read transaction: each answer
    /// of a group sees the database as of the group's start, as if its
    /// lines had come at once); a group ends before the batch waits for
    /// input, so an idle batch holds no transaction.
    static let groupSize = 1024

    /// Lines already arrived are read this many at a time: each is parsed,
    /// `prepare` is given the requests (a nearby or current-place batch
    /// asks there for the spatial index's memory on the way to each, so
    /// that the reads of the lines' descents overlap), then they are
    /// answered in order.
    static let lookahead = 16

    static func run(
        _ context: CommandContext, snapshot: ((() throws -> Void) throws -> Void)? = nil,
        answer: (JSONObject) throws -> [UInt8]
    ) throws -> ExitCode {
        try run(context, snapshot: snapshot, parse: { $0 }, prepare: nil, answer: answer)
    }

    static func run<Request>(
        _ context: CommandContext, snapshot: ((() throws -> Void) throws -> Void)? = nil,
        parse: (JSONObject) throws -> Request, prepare: (([Request]) -> Void)?,
        answer: (Request) throws -> [UInt8]
    ) throws -> ExitCode {
        if context.arguments.value(CommandSpec.GlobalOptions.output) == "text" {
            throw UsageError(message: "--batch writes NDJSON; --output text is not available with it")
        }
        let console = context.console
        let writer = JSONWriter()
        var line = 0
        var failed = 0
        // Answers are written 64 KiB at a time, and whenever the next
        // request has not arrived yet.
        var pending: [UInt8] = []
        pending.reserveCapacity(1 << 17)
        func flush() {
            guard !pending.isEmpty else { return }
            console.out(String(decoding: pending, as: UTF8.self))
            pending.removeAll(keepingCapacity: true)
        }
        /// A request line, or the error its line answers with (or that
        /// ends the batch when that line's turn comes).
        func request(_ text: String) -> Result<Request, any Error> {
            Result {
                var bytes = Array(text.utf8)
                // RFC 7464 record separators and surrounding white space.
                while let first = bytes.first, first == 0x1E || first == 0x20 || first == 0x09 { bytes.removeFirst() }
                while let last = bytes.last, last == 0x0D || last == 0x20 || last == 0x09 { bytes.removeLast() }
                if bytes.isEmpty { throw PlaceDBError.invalidArgument("empty line; expected a JSON object") }
                let value: JSONValue
                do {
                    value = try JSONValue(parsing: bytes)
                } catch let e as JSONSyntaxError {
                    throw PlaceDBError.invalidArgument("not JSON: \(e.message) at byte \(e.offset + 1)")
                }
                guard case .object(let object) = value else {
                    throw PlaceDBError.invalidArgument("expected a JSON object, got \(value.kindDescription)")
                }
                return try parse(object)
            }
        }
        /// Line `number`'s answer, or its error line.
        func reply(_ number: Int, _ parsed: Result<Request, any Error>) throws {
            let reply: [UInt8]
            do {
                reply = try answer(parsed.get())
            } catch PlaceDBError.invalidArgument(let message) {
                failed += 1
                reply = Array(writer.string(errorLine("line \(number): \(message)")).utf8)
            } catch let e as UsageError {
                failed += 1
                reply = Array(writer.string(errorLine("line \(number): \(e.message)")).utf8)
            }
            pending += reply
            pending.append(0x0A)
            if pending.count >= 1 << 16 { flush() }
        }
        /// Parses `texts`, prepares their requests, answers them in order.
        func handle(_ texts: [String]) throws {
            let parsed = texts.map { text -> (Int, Result<Request, any Error>) in
                line += 1
                return (line, request(text))
            }
            if let prepare {
                let requests = parsed.compactMap { try? $0.1.get() }
                if !requests.isEmpty { prepare(requests) }
            }
            for (number, p) in parsed { try reply(number, p) }
        }
        // Answers given before a database failure ends the batch are written.
        defer { flush() }
        var texts: [String] = []
        texts.reserveCapacity(lookahead)
        while let first = console.readInputLine(beforeWaiting: flush) {
            guard let snapshot else {
                try handle([first])
                continue
            }
            try snapshot {
                texts.removeAll(keepingCapacity: true)
                texts.append(first)
                var grouped = 1
                while grouped < groupSize, console.inputLineReady, let text = console.readInputLine() {
                    texts.append(text)
                    grouped += 1
                    if texts.count == lookahead {
                        try handle(texts)
                        texts.removeAll(keepingCapacity: true)
                    }
                }
                if !texts.isEmpty { try handle(texts) }
            }
        }
        flush()
        if failed > 0 {
            console.errLine(
                "placedb \(context.spec.name): \(failed) of \(line) request line\(line == 1 ? "" : "s") failed; each has an error line in the output"
            )
            return .dataError
        }
        return .success
    }

    /// `{"error": {"code": 400, "message": ..., "status": "INVALID_ARGUMENT"}}`.
    static func errorLine(_ message: String) -> JSONValue {
        ["error": ["code": 400, "message": .string(message), "status": "INVALID_ARGUMENT"]]
    }

    /// Options that describe a single query and so cannot go with --batch.
    static func refuse(_ options: [OptionSpec], with context: CommandContext) throws {
        if !context.arguments.positionals.isEmpty {
            throw UsageError(
                message: "--batch reads its queries from standard input; drop '\(context.arguments.positionals[0])'")
        }
        for option in options where context.arguments.given(option) {
            throw UsageError(
                message: "--batch reads its queries from standard input; \(option.name) belongs in each request line")
        }
    }
}
