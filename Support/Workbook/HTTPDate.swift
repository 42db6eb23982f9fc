import Foundation

/// HTTP-dates, as `Retry-After`, `Last-Modified` and `Date` carry them: given code, shared by
/// chapter 3 (`RetryPolicy.retryAfter`) and chapter 5 (`ResumeData.ifRangeValidator`).
///
/// RFC 9110 §5.6.7 asks a recipient to accept three formats: IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime (`Sun Nov  6 08:49:37 1994`). They are read here byte by byte, in O(length), with
/// no `DateFormatter`: building one per call is the expensive part, and none is shared, so there
/// is no formatter state to reason about.
public enum HTTPDate {
  static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

  /// The instant `text` names, or nil when it is none of the three formats. An RFC 850 date's
  /// two-digit year is the latest one not more than 50 years after `now`'s year (RFC 9110 §5.6.7).
  public static func parse(_ text: String, now: Date = Date()) -> Date? {
    let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
    return imfFixdate(bytes) ?? rfc850(bytes, now: now) ?? asctime(bytes)
  }

  static func imfFixdate(_ bytes: [UInt8]) -> Date? {
    var reader = Reader(bytes: bytes)
    guard reader.name(shortDays) != nil, reader.literal(", "), let day = reader.digits(2), reader.literal(" "),
      let month = reader.name(months), reader.literal(" "), let year = reader.digits(4), reader.literal(" "),
      let time = reader.time(), reader.literal(" GMT"), reader.atEnd
    else { return nil }
    return date(year: year, month: month + 1, day: day, time: time)
  }

  static func rfc850(_ bytes: [UInt8], now: Date) -> Date? {
    var reader = Reader(bytes: bytes)
    guard reader.name(longDays) != nil, reader.literal(", "), let day = reader.digits(2), reader.literal("-"),
      let month = reader.name(months), reader.literal("-"), let twoDigits = reader.digits(2), reader.literal(" "),
      let time = reader.time(), reader.literal(" GMT"), reader.atEnd
    else { return nil }
    let thisYear = year(of: now)
    var year = thisYear - thisYear % 100 + twoDigits
    if year > thisYear + 50 { year -= 100 }
    return date(year: year, month: month + 1, day: day, time: time)
  }

  static func asctime(_ bytes: [UInt8]) -> Date? {
    var reader = Reader(bytes: bytes)
    guard reader.name(shortDays) != nil, reader.literal(" "), let month = reader.name(months), reader.literal(" ")
    else { return nil }
    let day = reader.literal(" ") ? reader.digits(1) : reader.digits(2)
    guard let day, reader.literal(" "), let time = reader.time(), reader.literal(" "), let year = reader.digits(4), reader.atEnd
    else { return nil }
    return date(year: year, month: month + 1, day: day, time: time)
  }

  /// Nil when the day does not exist in that month or the time is out of range (a second of 60
  /// is a leap second).
  static func date(year: Int, month: Int, day: Int, time: (hour: Int, minute: Int, second: Int)) -> Date? {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard (1...lengths[month - 1]).contains(day), time.hour < 24, time.minute < 60, time.second <= 60 else { return nil }
    let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  /// Days from 1970-01-01 in the proleptic Gregorian calendar: years start in March, so the leap
  /// day ends a year, and whole 400-year eras are counted first.
  static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let marchYear = month <= 2 ? year - 1 : year
    let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
    let yearOfEra = marchYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The UTC year of `date`: `daysSinceEpoch` backwards, year only.
  static func year(of date: Date) -> Int {
    let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) + 719_468
    let era = (days >= 0 ? days : days - 146_096) / 146_097
    let dayOfEra = days - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    return yearOfEra + era * 400 + ((5 * dayOfYear + 2) / 153 >= 10 ? 1 : 0)
  }

  /// A cursor over the bytes; every read checks the bounds and moves only when it matches.
  struct Reader {
    let bytes: [UInt8]
    var index = 0

    var atEnd: Bool { index == bytes.count }

    mutating func literal(_ text: String) -> Bool {
      let expected = Array(text.utf8)
      guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
        return false
      }
      index += expected.count
      return true
    }

    mutating func digits(_ count: Int) -> Int? {
      guard bytes.count - index >= count else { return nil }
      var value = 0
      for byte in bytes[index..<(index + count)] {
        guard (0x30...0x39).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      index += count
      return value
    }

    /// The index in `names` of the name that comes next (no name of a list is a prefix of another).
    mutating func name(_ names: [String]) -> Int? {
      for (position, name) in names.enumerated() where literal(name) {
        return position
      }
      return nil
    }

    mutating func time() -> (hour: Int, minute: Int, second: Int)? {
      guard let hour = digits(2), literal(":"), let minute = digits(2), literal(":"), let second = digits(2) else { return nil }
      return (hour, minute, second)
    }
  }
}
