import PlaceKit
public enum CommandLineTool { public static func main(arguments: [String]) -> Int32 { 0 } }
