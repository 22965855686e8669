#pragma once

#include <QDateTime>

// The time now, as local wall-clock time, for the timestamps of every job and request.
// QDateTime::currentDateTime() asks the C library for the local time zone each time, and glibc
// then checks /etc/localtime with a stat() call: four per evaluation. The offset from UTC is
// asked for once a minute instead (a change of daylight saving time shows within a minute), and
// the stamps carry it (Qt::OffsetFromUTC): they print as local time and compare as instants.
namespace LocalClock {

inline QDateTime now()
{
    static qint64 offsetCheckedAt = 0;
    static int offsetSeconds = 0;
    const qint64 ms = QDateTime::currentMSecsSinceEpoch();
    if (ms - offsetCheckedAt >= 60000 || ms < offsetCheckedAt) {
        offsetSeconds = QDateTime::fromMSecsSinceEpoch(ms).offsetFromUtc();
        offsetCheckedAt = ms;
    }
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::OffsetFromUTC, offsetSeconds);
}

} // namespace LocalClock
