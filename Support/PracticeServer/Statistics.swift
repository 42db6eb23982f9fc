extension PracticeServer {
  /// What the server holds and has done since it last started: tests read these to show that
  /// connections, threads and memory stay bounded under load, and a learner can print them.
  public struct Statistics: Sendable, Equatable {
    /// Connections being served now, idle kept-alive ones included.
    public var openConnections = 0
    /// Open connections waiting for a request they have received nothing of (idle kept-alive ones).
    public var idleConnections = 0
    /// The most connections served at once.
    public var peakOpenConnections = 0
    /// Threads serving connections now: one per connection, counted from when it starts until it
    /// hands its connection's slot back, its last act (the accepting thread is not counted).
    public var connectionThreads = 0
    /// The most connection threads running at once.
    public var peakConnectionThreads = 0
    /// Connections accepted, including the refused ones.
    public var acceptedConnections = 0
    /// Connections answered `503` and closed because every slot was busy with a request.
    public var refusedConnections = 0
    /// Idle kept-alive connections closed to make room for a new one.
    public var idleConnectionsClosed = 0
    /// Requests refused before any route saw them (400, 408, 413, 414, 417, 431, 501, 505).
    public var rejectedRequests = 0
    /// Entries in `requestLog` now.
    public var requestLogEntries = 0
    /// Bytes of method, path, query and headers `requestLog` holds now.
    public var requestLogBytes = 0
    /// Distinct paths `requestCount(_:)` counts now.
    public var countedPaths = 0

    /// All zero: a server that has not started.
    public init() {}
  }
}
