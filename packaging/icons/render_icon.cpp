// waitscope-render-icon: renders the hand-drawn SVG icon as square PNGs at build time
// (resources/icons/*.svg -> hicolor/NxN/apps/*.png), with Qt's own SVG renderer so no
// extra tool is needed.
//   waitscope-render-icon ICON.svg OUT.png SIZE
#include <cstdio>
#include <cstdlib>

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fputs("usage: waitscope-render-icon ICON.svg OUT.png SIZE\n", stderr);
    return 2;
  }
  const int size = std::atoi(argv[3]);
  if (size < 8 || size > 1024) {
    std::fprintf(stderr, "waitscope-render-icon: size %s out of range 8..1024\n", argv[3]);
    return 2;
  }
  qputenv("QT_QPA_PLATFORM", "offscreen");  // build machines have no display
  QGuiApplication app(argc, argv);
  QSvgRenderer svg(QString::fromLocal8Bit(argv[1]));
  if (!svg.isValid()) {
    std::fprintf(stderr, "waitscope-render-icon: cannot read the SVG %s\n", argv[1]);
    return 1;
  }
  QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  svg.render(&painter);
  painter.end();
  if (!image.save(QString::fromLocal8Bit(argv[2]), "PNG")) {
    std::fprintf(stderr, "waitscope-render-icon: cannot write %s\n", argv[2]);
    return 1;
  }
  return 0;
}
