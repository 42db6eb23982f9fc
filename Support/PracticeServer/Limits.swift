extension PracticeServer {
  /// What one client may cost the server: time, bytes, connections and memory.
  ///
  /// The defaults are far above anything a learner's code or curl sends, and far below what a
  /// runaway loop or a hostile client would need to take the server down. Tests lower them to
  /// reach a limit with a few bytes instead of megabytes.
  public struct Limits: Sendable {
    /// Connections served at once, each on a thread of its own. One more gets
    /// `503 Service Unavailable` with `Retry-After` and is closed, unless an idle kept-alive
    /// connection can be closed to make room (RFC 9112 §9.5 lets a server close idle ones).
    public var maximumConnections = 64
    /// How long the request line and headers may take to arrive, in total, counted from when the
    /// server starts waiting for them. A whole deadline rather than one per read, so a client
    /// that trickles a byte at a time (slowloris) cannot hold a connection for long. A client that
    /// sent nothing is closed quietly; one that sent part of a request gets `408 Request Timeout`.
    public var headerTimeout: Duration = .seconds(10)
    /// How long a new connection may stay silent and still be treated as about to send its first
    /// request. Until then it is never closed to make room: its request may be on the wire. After
    /// it, a connection that has sent nothing counts as idle, and yields its slot to a new
    /// connection when every slot is taken, as an idle kept-alive connection does, so clients
    /// that connect and say nothing cannot starve the ones that talk.
    public var newConnectionGrace: Duration = .milliseconds(500)
    /// How long a request's head may take once every slot is taken: a head still incomplete that
    /// long after it started gets `408`, even before `headerTimeout`, so slow clients cannot hold
    /// a full server for the whole header deadline. Checked when the head's reader wakes, at most
    /// this often.
    public var headerTimeoutWhenFull: Duration = .seconds(1)
    /// How long the body may take to arrive, in total, once the headers are in (`408` after it).
    public var bodyTimeout: Duration = .seconds(30)
    /// How long one write may block on a client that stops reading before the server gives up.
    public var sendTimeout: Duration = .seconds(30)
    /// The longest request line; a longer one gets `414 URI Too Long` (RFC 9112 §3).
    public var maximumRequestLineBytes = 8_192
    /// The largest header section (request line included); more gets
    /// `431 Request Header Fields Too Large` (RFC 6585 §5). Also bounds chunked trailers.
    public var maximumHeaderBytes = 65_536
    /// The most header fields in one request; more gets `431`.
    public var maximumHeaderFields = 100
    /// The largest request body, however it is framed; more gets `413 Content Too Large`. A body
    /// is held whole until it is answered, so this times `maximumConnections` bounds the memory
    /// all clients together can fill (8 MB × 64 = 512 MB; the API's largest body is an avatar).
    public var maximumBodyBytes = 8 << 20
    /// How many answered requests `requestLog` keeps: the most recent ones.
    public var requestLogEntries = 1_000
    /// How many bytes of method, path, query and headers `requestLog` keeps, at most.
    public var requestLogBytes = 4 << 20
    /// How many distinct paths `requestCount(_:)` counts; past that the oldest path is forgotten.
    public var countedPaths = 1_000

    public init() {}
  }
}
