import Foundation
import PlaceModel

/// `placedb completion bash|zsh|fish`: a shell completion script written
/// from the command table: commands, subcommands, options, and the values
/// of options that take one of a known set (--output, --fields, --type,
/// files for --db).
enum CompletionCommand: Command {
    static let shells = ["bash", "zsh", "fish"]

    static let spec = CommandSpec(
        name: "completion",
        abstract:
            "Print a completion script for bash, zsh or fish: commands, options, field names, place types and files.",
        arguments: [ArgumentSpec(name: "SHELL", help: "bash, zsh or fish.")],
        options: [],
        discussion: """
            The install script puts each where its shell looks. To try one in the shell at hand:
            'source <(placedb completion bash)' in bash, 'source <(placedb completion zsh)' in zsh,
            'placedb completion fish | source' in fish.
            """,
        examples: [
            "placedb completion bash > /etc/bash_completion.d/placedb",
            "placedb completion fish > ~/.config/fish/completions/placedb.fish",
        ],
        seeAlso: [],
        docs: ["commands.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let args = context.arguments.positionals
        guard let shell = args.first else {
            throw UsageError(message: "missing SHELL (\(shells.joined(separator: ", ")))")
        }
        guard args.count == 1 else { throw UsageError(message: "unexpected argument '\(args[1])'") }
        switch shell {
        case "bash": context.console.out(bash())
        case "zsh": context.console.out(zsh())
        case "fish": context.console.out(fish())
        default:
            var message = "unknown shell '\(shell)'; expected one of: \(shells.joined(separator: ", "))"
            if let s = Typo.closest(shell, among: shells) { message = "unknown shell '\(shell)'; did you mean '\(s)'?" }
            throw UsageError(message: message)
        }
        return .success
    }

    // MARK: The table the scripts are written from

    /// What an option's value completes to.
    enum Values: Equatable {
        case none
        case words([String])
        /// Field names, comma-separated.
        case fields
        case files
        case directories
    }

    static func values(_ option: OptionSpec) -> Values {
        guard let value = option.value else { return .none }
        if let choices = option.choices { return .words(choices) }
        switch option.name {
        case "--fields", "--default-field-mask": return .fields
        case "--type", "--exclude-type": return .words(PlaceTypes.all)
        default: break
        }
        switch value {
        case "PATH", "FILE": return .files
        case "DIR": return .directories
        default: return .none
        }
    }

    /// The commands a user types first (a group's name once).
    static var topWords: [(String, String)] {
        var seen = Set<String>()
        var words: [(String, String)] = []
        for entry in CommandLineTool.commands {
            let first = String(entry.spec.name.split(separator: " ")[0])
            guard seen.insert(first).inserted else { continue }
            let group = CommandLineTool.groups.first { $0.name == first }
            words.append((first, group?.abstract ?? entry.spec.abstract))
        }
        words.append(("help", "Show help for a command, or the manual page (help --man)."))
        return words
    }

    static var groupNames: [String] { CommandLineTool.groups.map(\.name) }

    /// Whether the command's arguments are files.
    static func takesFiles(_ spec: CommandSpec) -> Bool {
        spec.arguments.contains { $0.name.hasPrefix("FILE") }
    }

    /// Every option that takes a value, of any command (so that the word
    /// after one is not read as a command).
    static var valuedOptions: [String] {
        var names = Set<String>()
        for entry in CommandLineTool.commands {
            for o in entry.spec.allOptions where o.value != nil { names.insert(o.name); names.formUnion(o.aliases) }
        }
        return names.sorted()
    }

    /// The first sentence of a help text, at most `limit` characters.
    static func short(_ text: String, limit: Int = 70) -> String {
        var s = text
        if let end = s.range(of: ". ") { s = String(s[..<end.lowerBound]) }
        if s.hasSuffix(".") { s.removeLast() }
        if s.count > limit { s = String(s.prefix(limit - 3)) + "..." }
        return s
    }

    // MARK: bash

    static func bash() -> String {
        func words(_ list: [String]) -> String { list.joined(separator: " ") }
        var s = """
            # bash completion for placedb (written by 'placedb completion bash')
            _placedb() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                local valued=" \(words(valuedOptions)) "
                local cmd="" i w
                for ((i = 1; i < COMP_CWORD; i++)); do
                    w="${COMP_WORDS[i]}"
                    if [[ "$valued" == *" $w "* ]]; then ((i++)); continue; fi
                    [[ "$w" == -* ]] && continue
                    if [[ -z "$cmd" ]]; then cmd="$w"
                    elif [[ " \(words(groupNames)) " == *" $cmd "* ]]; then cmd="$cmd $w"; break
                    else break; fi
                done
                if [[ -z "$cmd" ]]; then
                    if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "--help --version --db --output" -- "$cur"))
                    else COMPREPLY=($(compgen -W "\(words(topWords.map(\.0))) --help --version" -- "$cur")); fi
                    return
                fi
                case "$cmd" in

            """
        for group in groupNames {
            let subs = CommandLineTool.subcommands(of: group).map { String($0.spec.name.dropFirst(group.count + 1)) }
            s += "        \(group)) COMPREPLY=($(compgen -W \"\(words(subs)) --help\" -- \"$cur\")); return ;;\n"
        }
        s +=
            "        help) COMPREPLY=($(compgen -W \"\(words(topWords.map(\.0).filter { $0 != "help" })) --man\" -- \"$cur\")); return ;;\n"
        s += "    esac\n    case \"$cmd\" in\n"
        let types = words(PlaceTypes.all), fields = words(FieldMask.validNames)
        for entry in CommandLineTool.commands {
            let spec = entry.spec
            s += "        \"\(spec.name)\")\n            case \"$prev\" in\n"
            for o in spec.allOptions {
                let names = ([o.name] + o.aliases + (o.short.map { ["-\($0)"] } ?? [])).joined(separator: "|")
                switch values(o) {
                case .none: continue
                case .words(let list):
                    let w = list == PlaceTypes.all ? "$_placedb_types" : words(list)
                    s += "                \(names)) COMPREPLY=($(compgen -W \"\(w)\" -- \"$cur\")); return ;;\n"
                case .fields:
                    s +=
                        "                \(names)) local pre=\"\"; [[ \"$cur\" == *,* ]] && pre=\"${cur%,*},\"; COMPREPLY=($(compgen -P \"$pre\" -W \"$_placedb_fields\" -- \"${cur##*,}\")); compopt -o nospace 2>/dev/null; return ;;\n"
                case .files:
                    s +=
                        "                \(names)) COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null; return ;;\n"
                case .directories:
                    s +=
                        "                \(names)) COMPREPLY=($(compgen -d -- \"$cur\")); compopt -o filenames 2>/dev/null; return ;;\n"
                }
            }
            s += "            esac\n"
            let options = spec.allOptions.flatMap { [$0.name] + ($0.short.map { ["-\($0)"] } ?? []) }
            s +=
                "            if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \"\(words(options))\" -- \"$cur\")); return; fi\n"
            if spec.name == "completion" {
                s += "            COMPREPLY=($(compgen -W \"\(words(shells))\" -- \"$cur\"))\n"
            } else if takesFiles(spec) {
                s += "            COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames 2>/dev/null\n"
            }
            s += "            ;;\n"
        }
        s += """
                esac
            }
            _placedb_types="\(types)"
            _placedb_fields="\(fields)"
            complete -F _placedb placedb

            """
        return s
    }

    // MARK: zsh

    static func zshQuote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    static func zshDescribed(_ name: String, _ text: String) -> String {
        zshQuote(name.replacingOccurrences(of: ":", with: "\\:") + ":" + short(text))
    }

    static func zsh() -> String {
        var s = """
            #compdef placedb
            # zsh completion for placedb (written by 'placedb completion zsh')
            _placedb() {
                local -a valued commands subs opts
                valued=(\(valuedOptions.joined(separator: " ")))
                commands=(\(topWords.map { zshDescribed($0.0, $0.1) }.joined(separator: " ")))
                local cmd="" w
                local -i i
                for (( i = 2; i < CURRENT; i++ )); do
                    w=${words[i]}
                    if (( ${valued[(Ie)$w]} )); then (( i++ )); continue; fi
                    [[ $w == -* ]] && continue
                    if [[ -z $cmd ]]; then cmd=$w
                    elif [[ " \(groupNames.joined(separator: " ")) " == *" $cmd "* ]]; then cmd="$cmd $w"; break
                    else break; fi
                done
                local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
                if [[ -z $cmd ]]; then
                    if [[ $cur == -* ]]; then compadd -- --help --version --db --output
                    else _describe -t commands 'placedb command' commands; fi
                    return
                fi
                case $cmd in

            """
        for group in groupNames {
            let subs = CommandLineTool.subcommands(of: group).map {
                zshDescribed(String($0.spec.name.dropFirst(group.count + 1)), $0.spec.abstract)
            }
            s +=
                "        \(group)) subs=(\(subs.joined(separator: " "))); _describe -t commands 'subcommand' subs; return ;;\n"
        }
        s +=
            "        help) compadd -- \(topWords.map(\.0).filter { $0 != "help" }.joined(separator: " ")) --man; return ;;\n"
        s += "    esac\n    case $cmd in\n"
        for entry in CommandLineTool.commands {
            let spec = entry.spec
            s += "        \(zshQuote(spec.name)))\n            case $prev in\n"
            for o in spec.allOptions {
                let names = ([o.name] + o.aliases + (o.short.map { ["-\($0)"] } ?? [])).joined(separator: "|")
                switch values(o) {
                case .none: continue
                case .words(let list):
                    let w = list == PlaceTypes.all ? "$_placedb_types[@]" : list.joined(separator: " ")
                    s += "                \(names)) compadd -- \(w); return ;;\n"
                case .fields:
                    s += "                \(names)) compset -P '*,'; compadd -S '' -- $_placedb_fields[@]; return ;;\n"
                case .files:
                    s += "                \(names)) _files; return ;;\n"
                case .directories:
                    s += "                \(names)) _files -/; return ;;\n"
                }
            }
            s += "            esac\n"
            let options = spec.allOptions.flatMap { o in
                ([o.name] + (o.short.map { ["-\($0)"] } ?? [])).map { zshDescribed($0, o.help) }
            }
            s +=
                "            if [[ $cur == -* ]]; then opts=(\(options.joined(separator: " "))); _describe -t options 'option' opts; return; fi\n"
            if spec.name == "completion" {
                s += "            compadd -- \(shells.joined(separator: " "))\n"
            } else if takesFiles(spec) {
                s += "            _files\n"
            }
            s += "            ;;\n"
        }
        s += """
                esac
            }
            _placedb_types=(\(PlaceTypes.all.joined(separator: " ")))
            _placedb_fields=(\((["*"] + FieldMask.validNames).map(zshQuote).joined(separator: " ")))
            if [[ "${funcstack[1]}" == _placedb ]]; then _placedb "$@"; else compdef _placedb placedb; fi

            """
        return s
    }

    // MARK: fish

    static func fishQuote(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    static func fish() -> String {
        var s = """
            # fish completion for placedb (written by 'placedb completion fish')
            function __placedb_command
                set -l tokens (commandline -opc)
                set -e tokens[1]
                set -l valued \(valuedOptions.joined(separator: " "))
                set -l cmd
                set -l skip 0
                for t in $tokens
                    if test $skip -eq 1
                        set skip 0
                        continue
                    end
                    if contains -- $t $valued
                        set skip 1
                        continue
                    end
                    if string match -q -- '-*' $t
                        continue
                    end
                    if test (count $cmd) -eq 0
                        set cmd $t
                    else if contains -- $cmd[1] \(groupNames.joined(separator: " "))
                        set cmd $cmd $t
                        break
                    else
                        break
                    end
                end
                string join ' ' -- $cmd
            end
            function __placedb_is
                set -l command (__placedb_command)
                test "$command" = "$argv"
            end
            complete -c placedb -f
            complete -c placedb -n '__placedb_is ""' -l help -s h -d 'Show help'
            complete -c placedb -n '__placedb_is ""' -l version -d 'Show the version'

            """
        for (word, abstract) in topWords {
            s += "complete -c placedb -n '__placedb_is \"\"' -a \(word) -d \(fishQuote(short(abstract)))\n"
        }
        for group in groupNames {
            for sub in CommandLineTool.subcommands(of: group) {
                s +=
                    "complete -c placedb -n '__placedb_is \(group)' -a \(sub.spec.name.dropFirst(group.count + 1)) -d \(fishQuote(short(sub.spec.abstract)))\n"
            }
        }
        s +=
            "complete -c placedb -n '__placedb_is help' -a \(fishQuote(topWords.map(\.0).filter { $0 != "help" }.joined(separator: " ")))\n"
        s += "complete -c placedb -n '__placedb_is help' -l man -d 'Print the manual page'\n"
        let types = fishQuote(PlaceTypes.all.joined(separator: " ")),
            fields = fishQuote((["*"] + FieldMask.validNames).joined(separator: " "))
        for entry in CommandLineTool.commands {
            let spec = entry.spec
            let condition = "-n \(fishQuote("__placedb_is \(spec.name)"))"
            for o in spec.allOptions {
                var line = "complete -c placedb \(condition) -l \(o.name.dropFirst(2))"
                if let c = o.short { line += " -s \(c)" }
                switch values(o) {
                case .none: if o.value != nil { line += " -x" }
                case .words(let list):
                    line += " -x -a " + (list == PlaceTypes.all ? types : fishQuote(list.joined(separator: " ")))
                case .fields: line += " -x -a " + fields
                case .files: line += " -r -F"
                case .directories: line += " -x -a '(__fish_complete_directories)'"
                }
                s += line + " -d \(fishQuote(short(o.help)))\n"
            }
            if spec.name == "completion" {
                s += "complete -c placedb \(condition) -a \(fishQuote(shells.joined(separator: " ")))\n"
            } else if takesFiles(spec) {
                s += "complete -c placedb \(condition) -F\n"
            }
        }
        return s
    }
}
