#pragma once

#include "Job.h"

#include <QJsonArray>

// "What happened in the shared session since your last call": the person's and other
// agents' evaluations, one line each, for the end of every tool result.
namespace ActivityDigest {

constexpr int MaxEntries = 20;

QString summaryOf(const Job &job);
QString text(const QList<JobPtr> &activity);
QJsonArray json(const QList<JobPtr> &activity);
QJsonObject schema(); // the outputSchema property that json() fills

} // namespace ActivityDigest
