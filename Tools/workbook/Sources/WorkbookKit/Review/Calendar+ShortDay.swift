import Foundation

extension Calendar {
  /// `Sat 28 Nov`: how the review, the walkthrough and the drills write a day, in this calendar
  /// and its time zone.
  func shortDay(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.calendar = self
    formatter.timeZone = timeZone
    formatter.dateFormat = "EEE d MMM"
    return formatter.string(from: date)
  }
}
