import Foundation

/// A bounded, closable queue between two threads.
package final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private let capacity: Int
    private var closed = false
    private var cancelled = false

    package init(capacity: Int) { self.capacity = capacity }

    /// Blocks while full. False when the consumer cancelled.
    package func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// Blocks while empty; nil once closed and drained.
    package func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        if items.isEmpty { return nil }
        let e = items.removeFirst()
        condition.broadcast()
        return e
    }

    /// The producer is done.
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer stops: pushes fail from now on.
    package func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
