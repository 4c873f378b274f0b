// The one number formatter of the app: exact texts in a fixed locale.
#include <QLocale>
#include <QTest>

#include "views/model/number_format.h"
#include "views/model/value_mode.h"

using namespace waitscope;
using namespace waitscope::views;

class NumberFormatTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

  void timesTakeTheUnitOfTheirMagnitude() {
    QCOMPARE(formatSeconds(0.0), QStringLiteral("0"));
    QCOMPARE(formatSeconds(1.71e-6), QStringLiteral("1.71 us"));
    QCOMPARE(formatSeconds(0.00477), QStringLiteral("4.77 ms"));
    QCOMPARE(formatSeconds(1.234), QStringLiteral("1.23 s"));
    QCOMPARE(formatSeconds(49.0), QStringLiteral("49.0 s"));
    QCOMPARE(formatSeconds(123.4), QStringLiteral("123 s"));
    QCOMPARE(formatSeconds(1.20000000692e-06), QStringLiteral("1.20 us"));
    QCOMPARE(formatSeconds(5e-10), QStringLiteral("0.500 ns"));
    QCOMPARE(formatSeconds(12e-9), QStringLiteral("12.0 ns"));
  }

  void roundingComesBeforeTheUnit() {
    // 999.6 us has three significant digits 1.00e3 us: a millisecond.
    QCOMPARE(formatSeconds(999.6e-6), QStringLiteral("1.00 ms"));
    QCOMPARE(formatSeconds(999.4e-6), QStringLiteral("999 us"));
    QCOMPARE(formatSeconds(0.9996), QStringLiteral("1.00 s"));
    QCOMPARE(formatSeconds(999.4), QStringLiteral("999 s"));
    // From a thousand seconds on, whole seconds with separators.
    QCOMPARE(formatSeconds(999.6), QStringLiteral("1,000 s"));
    QCOMPARE(formatSeconds(12345.4), QStringLiteral("12,345 s"));
  }

  void negativeTimesKeepTheirSign() {
    QCOMPARE(formatSeconds(-2.5), QStringLiteral("-2.50 s"));
    QCOMPARE(formatSeconds(-0.00025), QStringLiteral("-250 us"));
    QCOMPARE(formatSeconds(-4321.0), QStringLiteral("-4,321 s"));
  }

  void countsHaveThousandsSeparators() {
    QCOMPARE(formatCount(0.0), QStringLiteral("0"));
    QCOMPARE(formatCount(320.0), QStringLiteral("320"));
    QCOMPARE(formatCount(31554.0), QStringLiteral("31,554"));
    QCOMPARE(formatCount(-31554.0), QStringLiteral("-31,554"));
    QCOMPARE(formatCount(1e12), QStringLiteral("1,000,000,000,000"));
    QCOMPARE(formatCount(2.5), QStringLiteral("2.50"));
    QCOMPARE(formatCount(0.125), QStringLiteral("0.125"));
    QCOMPARE(formatCount(1234.6), QStringLiteral("1,235"));
  }

  void quantitiesAndModes() {
    QCOMPARE(formatQuantity(0.00477, report::MetricUnit::Seconds), QStringLiteral("4.77 ms"));
    QCOMPARE(formatQuantity(31554.0, report::MetricUnit::Occurrences), QStringLiteral("31,554"));
    QCOMPARE(formatQuantity(320.0, report::MetricUnit::Bytes), QStringLiteral("320 B"));
    QCOMPARE(formatValue(1.71e-6, ValueMode::Absolute, report::MetricUnit::Seconds), QStringLiteral("1.71 us"));
    QCOMPARE(formatValue(12.5, ValueMode::PercentOfTotal, report::MetricUnit::Seconds), QStringLiteral("12.50 %"));
    QCOMPARE(formatValue(-3.0, ValueMode::PeerPercent, report::MetricUnit::Bytes), QStringLiteral("-3.00 %"));
  }

  void bytesInBinaryMultiples() {
    QCOMPARE(formatBytes(0.0), QStringLiteral("0"));
    QCOMPARE(formatBytes(320.0), QStringLiteral("320 B"));
    QCOMPARE(formatBytes(1000.0), QStringLiteral("1,000 B"));  // below 1 KiB: whole bytes
    QCOMPARE(formatBytes(1024.0), QStringLiteral("1.00 KiB"));
    QCOMPARE(formatBytes(1536.0), QStringLiteral("1.50 KiB"));
    QCOMPARE(formatBytes(12.3 * 1048576.0), QStringLiteral("12.3 MiB"));
    QCOMPARE(formatBytes(1023.0 * 1048576.0), QStringLiteral("1,020 MiB"));
    QCOMPARE(formatBytes(3.0 * 1073741824.0), QStringLiteral("3.00 GiB"));
    QCOMPARE(formatBytes(-2048.0), QStringLiteral("-2.00 KiB"));
    QCOMPARE(byteScaleFor(320.0).unit, QStringLiteral("B"));
    QCOMPARE(byteScaleFor(5.0 * 1048576.0).unit, QStringLiteral("MiB"));
    QCOMPARE(byteScaleFor(5.0 * 1048576.0).factor, 1.0 / 1048576.0);
  }

  void axisScales() {
    QCOMPARE(timeScaleFor(0.00477).unit, QStringLiteral("ms"));
    QCOMPARE(timeScaleFor(0.00477).factor, 1e3);
    QCOMPARE(timeScaleFor(2.0).unit, QStringLiteral("s"));
    QCOMPARE(timeScaleFor(1.71e-6).unit, QStringLiteral("us"));
    QCOMPARE(timeScaleFor(2e-7).unit, QStringLiteral("ns"));
    QCOMPARE(timeScaleFor(0.0).unit, QStringLiteral("s"));
  }
};

QTEST_MAIN(NumberFormatTest)
#include "number_format_test.moc"
