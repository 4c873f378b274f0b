#include "app/launch/remote_file_dialog.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include "app/launch/remote_browsing.h"
#include "app/launch/shell_job.h"

namespace waitscope::launch {

namespace {
constexpr int kIsDirectoryRole = Qt::UserRole + 1;
}

RemoteFileDialog::RemoteFileDialog(const ConnectionProfile& profile, const QString& startDirectory, QWidget* parent,
                                   const QStringList& suffixes)
    : QDialog(parent), profile_(profile), suffixes_(suffixes) {
  setWindowTitle(tracesOnly() ? tr("Choose a trace on %1").arg(profile.displayHost())
                              : tr("Choose a file on %1").arg(profile.displayHost()));
  resize(560, 440);
  auto* layout = new QVBoxLayout(this);
  auto* top = new QHBoxLayout;
  auto* up = new QPushButton(style()->standardIcon(QStyle::SP_FileDialogToParent), QString(), this);
  up->setToolTip(tr("Parent directory"));
  up->setObjectName(QStringLiteral("upButton"));
  pathEdit_ = new QLineEdit(this);
  pathEdit_->setObjectName(QStringLiteral("pathEdit"));
  top->addWidget(up);
  top->addWidget(pathEdit_);
  layout->addLayout(top);
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("entries"));
  layout->addWidget(list_);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  layout->addWidget(status_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
  openButton_ = buttons->button(QDialogButtonBox::Open);
  openButton_->setEnabled(false);
  layout->addWidget(buttons);

  connect(up, &QPushButton::clicked, this, [this] {
    if (directory_.isEmpty()) return;
    QString parentDir = directory_.endsWith(QLatin1Char('/')) ? directory_.chopped(1) : directory_;
    parentDir = parentDir.left(parentDir.lastIndexOf(QLatin1Char('/')));
    openDirectory(parentDir.isEmpty() ? QStringLiteral("/") : parentDir);
  });
  connect(pathEdit_, &QLineEdit::returnPressed, this, [this] { openDirectory(pathEdit_->text()); });
  connect(list_, &QListWidget::itemActivated, this, &RemoteFileDialog::activate);
  connect(list_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    openButton_->setEnabled(item && (item->data(kIsDirectoryRole).toBool() || pickable(item->text())));
  });
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    if (QListWidgetItem* item = list_->currentItem()) activate(item);
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  openDirectory(startDirectory);
}

QString RemoteFileDialog::childPath(const QString& name) const {
  return directory_.endsWith(QLatin1Char('/')) ? directory_ + name : directory_ + QLatin1Char('/') + name;
}

bool RemoteFileDialog::pickable(const QString& name) const {
  for (const QString& suffix : suffixes_)
    if (name.endsWith(suffix)) return true;
  return false;
}

bool RemoteFileDialog::tracesOnly() const { return suffixes_ == QStringList{QStringLiteral(".otf2")}; }

void RemoteFileDialog::activate(QListWidgetItem* item) {
  if (!item) return;
  if (item->data(kIsDirectoryRole).toBool()) return openDirectory(childPath(item->text()));
  if (!pickable(item->text())) return;
  selected_ = childPath(item->text());
  accept();
}

void RemoteFileDialog::openDirectory(const QString& directory) {
  const int request = ++requests_;  // a slow answer for an older request is dropped
  status_->setText(tr("Listing %1 …").arg(directory.isEmpty() ? tr("the start directory") : directory));
  listDirectory(profile_, directory, this, [this, request](const DirectoryListing& listing) {
    if (request != requests_) return;
    if (!listing.error.isEmpty()) {
      status_->setText(listing.error);
      emit directoryLoaded(QString());
      return;
    }
    directory_ = listing.path;
    pathEdit_->setText(directory_);
    list_->clear();
    const QIcon folder = style()->standardIcon(QStyle::SP_DirIcon);
    const QIcon file = style()->standardIcon(QStyle::SP_FileIcon);
    for (const QString& d : listing.directories) {
      auto* item = new QListWidgetItem(folder, d, list_);
      item->setData(kIsDirectoryRole, true);
    }
    int pickables = 0;
    for (const QString& f : listing.files) {
      auto* item = new QListWidgetItem(file, f, list_);
      item->setData(kIsDirectoryRole, false);
      if (pickable(f)) ++pickables;
      else item->setFlags(item->flags() & ~Qt::ItemIsEnabled);  // only OTF2 anchors (or the wanted files) can be picked
    }
    const QString kinds = suffixes_.join(QStringLiteral(" or "));
    if (tracesOnly())
      status_->setText(pickables ? tr("Pick the trace's .otf2 file (usually traces.otf2).") : tr("No OTF2 trace here."));
    else
      status_->setText(pickables ? tr("Pick a %1 file.").arg(kinds) : tr("No %1 file here.").arg(kinds));
    emit directoryLoaded(directory_);
  });
}

RemoteFileDialog::~RemoteFileDialog() { stopChildProcesses(this); }

}  // namespace waitscope::launch
