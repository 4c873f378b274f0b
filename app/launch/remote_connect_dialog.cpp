#include "app/launch/remote_connect_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace waitscope::launch {

namespace {

// A word from the report's folder, fit for one line of a message.
QString shown(const QString& text) {
  const QString line = text.simplified();
  return line.size() > 80 ? line.left(79) + QChar(0x2026) : line;
}

QString destinationOf(const ConnectionProfile& p) {
  return recordedDestination(originOf(p, {}, {}));
}

}  // namespace

RemoteConnectDialog::RemoteConnectDialog(const RemoteOrigin& origin, const ResolvedOrigin& resolved,
                                         QList<ConnectionProfile> profiles, QWidget* parent)
    : QDialog(parent),
      profiles_(std::move(profiles)),
      message_(new QLabel(this)),
      choice_(new QComboBox(this)),
      destination_(new QLabel(this)) {
  setObjectName(QStringLiteral("remoteConnectDialog"));
  setWindowTitle(tr("Connect for the timeline?"));
  const QString name = shown(origin.profileName);
  const QString recorded = shown(recordedDestination(origin));
  QString text;
  if (resolved.match == ResolvedOrigin::Match::HostDiffers) {
    text = tr("The trace of this report is on %1, recorded by the connection profile \"%2\". Your profile \"%2\" "
              "now connects to %3.")
               .arg(recorded, name, destinationOf(resolved.profile));
  } else {
    text = tr("The trace of this report is on %1, recorded by the connection profile \"%2\", which is not one of "
              "your connection profiles.")
               .arg(recorded, name);
  }
  text += QLatin1Char(' ') + tr("The timeline asks for its slices over one of your own profiles; choose one, or "
                                "do not connect.");
  message_->setText(text);
  message_->setTextFormat(Qt::PlainText);
  message_->setWordWrap(true);
  message_->setObjectName(QStringLiteral("message"));

  choice_->setObjectName(QStringLiteral("profile"));
  for (const ConnectionProfile& p : profiles_) choice_->addItem(QStringLiteral("%1 (%2)").arg(p.name, destinationOf(p)));
  int preferred = 0;
  for (int i = 0; i < profiles_.size(); ++i) {
    const bool named = resolved.match == ResolvedOrigin::Match::HostDiffers && profiles_[i].name == resolved.profile.name;
    if (named || (resolved.match == ResolvedOrigin::Match::UnknownProfile && connectsTo(profiles_[i], origin))) {
      preferred = i;
      break;
    }
  }
  choice_->setCurrentIndex(profiles_.isEmpty() ? -1 : preferred);
  destination_->setTextFormat(Qt::PlainText);
  destination_->setWordWrap(true);
  destination_->setObjectName(QStringLiteral("destination"));

  auto* buttons = new QDialogButtonBox(this);
  connect_ = buttons->addButton(tr("Connect"), QDialogButtonBox::AcceptRole);
  connect_->setObjectName(QStringLiteral("connect"));
  QPushButton* no = buttons->addButton(tr("Don't Connect"), QDialogButtonBox::RejectRole);
  no->setObjectName(QStringLiteral("dontConnect"));
  no->setDefault(true);  // Enter never connects by accident
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(choice_, &QComboBox::currentIndexChanged, this, &RemoteConnectDialog::updateDestination);

  auto* form = new QFormLayout;
  form->addRow(tr("Connect with:"), choice_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(message_);
  layout->addLayout(form);
  layout->addWidget(destination_);
  layout->addWidget(buttons);
  updateDestination();
}

QString RemoteConnectDialog::message() const { return message_->text(); }

ConnectionProfile RemoteConnectDialog::chosenProfile() const {
  const int i = choice_->currentIndex();
  return i >= 0 && i < profiles_.size() ? profiles_[i] : ConnectionProfile();
}

bool RemoteConnectDialog::selectProfile(const QString& name) {
  for (int i = 0; i < profiles_.size(); ++i) {
    if (profiles_[i].name != name) continue;
    choice_->setCurrentIndex(i);
    return true;
  }
  return false;
}

void RemoteConnectDialog::updateDestination() {
  const int i = choice_->currentIndex();
  connect_->setEnabled(i >= 0 && i < profiles_.size());
  if (!connect_->isEnabled()) {
    destination_->setText(tr("You have no connection profile to use (File > Connection Profiles…)."));
    return;
  }
  destination_->setText(tr("Connecting runs the set-up lines of \"%1\" and waitscope-report on %2.")
                            .arg(profiles_[i].name, destinationOf(profiles_[i])));
}

}  // namespace waitscope::launch
