import Testing
@testable import PlaceStorage

@Suite("How much of the file a reader maps ($PLACEDB_MMAP_MB)")
struct ReaderMapTests {
    @Test("whole MiB from 0 to 1 TiB; anything else keeps the 4 GiB default")
    func parsing() {
        #expect(PlaceStore.mapBytes(nil) == 4 << 30)
        #expect(PlaceStore.mapBytes("0") == 0)
        #expect(PlaceStore.mapBytes("256") == 256 << 20)
        #expect(PlaceStore.mapBytes("1048576") == 1 << 40)
        for bad in ["", "-1", "1.5", "64M", "1048577", "99999999999999999999"] {
            #expect(PlaceStore.mapBytes(bad) == 4 << 30, "\(bad)")
        }
    }
}

@Suite("How much of the stored index stays resident ($PLACEDB_INDEX_MB)")
struct IndexResidentLimitTests {
    @Test("whole MiB from 0 to 1 TiB; unset or anything else: no limit")
    func parsing() {
        #expect(PlaceStore.indexResidentBytes(nil) == nil)
        #expect(PlaceStore.indexResidentBytes("0") == 0)
        #expect(PlaceStore.indexResidentBytes("512") == 512 << 20)
        for bad in ["", "-1", "1.5", "64M", "1048577"] {
            #expect(PlaceStore.indexResidentBytes(bad) == nil, "\(bad)")
        }
    }
}
