import PlaceKit
public enum TestSupportPlaceholder {}
