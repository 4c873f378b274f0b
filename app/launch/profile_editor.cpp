#include "app/launch/profile_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include "app/launch/connection_tester.h"
#include "app/launch/profile_list_model.h"
#include "app/launch/shell_command.h"
#include "app/launch/ssh_config_aliases.h"

namespace waitscope::launch {

namespace {

QStringList lines(const QPlainTextEdit* edit) { return edit->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts); }

QStringList commaList(const QString& text) {
  QStringList out;
  for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
    if (!part.trimmed().isEmpty()) out << part.trimmed();
  return out;
}

}  // namespace

ProfileEditor::ProfileEditor(ProfileStore store, QWidget* parent)
    : QDialog(parent), store_(std::move(store)), model_(new ProfileListModel(this)), tester_(new ConnectionTester(this)) {
  setWindowTitle(tr("Connection profiles"));
  resize(900, 640);
  QString loadError;
  model_->setProfiles(store_.load(&loadError));

  // Left: the list and its actions.
  auto* left = new QVBoxLayout;
  list_ = new QListView(this);
  list_->setObjectName(QStringLiteral("profileList"));
  list_->setModel(model_);
  list_->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);
  left->addWidget(list_);
  auto button = [this](const QString& text, const QString& name) {
    auto* b = new QPushButton(text, this);
    b->setObjectName(name);
    return b;
  };
  auto* add = button(tr("Add"), "addButton");
  auto* duplicate = button(tr("Duplicate"), "duplicateButton");
  auto* rename = button(tr("Rename…"), "renameButton");
  auto* remove = button(tr("Delete"), "deleteButton");
  auto* up = button(tr("Move up"), "upButton");
  auto* down = button(tr("Move down"), "downButton");
  auto* import = button(tr("Import…"), "importButton");
  auto* exportButton = button(tr("Export…"), "exportButton");
  auto* grid = new QGridLayout;
  grid->addWidget(add, 0, 0);
  grid->addWidget(duplicate, 0, 1);
  grid->addWidget(rename, 1, 0);
  grid->addWidget(remove, 1, 1);
  grid->addWidget(up, 2, 0);
  grid->addWidget(down, 2, 1);
  grid->addWidget(import, 3, 0);
  grid->addWidget(exportButton, 3, 1);
  left->addLayout(grid);

  // Right: the form.
  auto* formWidget = new QWidget(this);
  auto* form = new QFormLayout(formWidget);
  name_ = new QLineEdit(this);
  kind_ = new QComboBox(this);
  kind_->addItem(tr("This computer (local)"), QStringLiteral("local"));
  kind_->addItem(tr("Remote over SSH"), QStringLiteral("ssh"));
  host_ = new QComboBox(this);
  host_->setEditable(true);
  const QString config = launchSettings().sshConfigFile.isEmpty() ? defaultSshConfigFile() : launchSettings().sshConfigFile;
  host_->addItems(sshConfigAliases(config));
  host_->setToolTip(tr("A host name or an alias from your ssh configuration"));
  user_ = new QLineEdit(this);
  user_->setPlaceholderText(tr("as in your ssh configuration"));
  port_ = new QSpinBox(this);
  port_->setRange(0, 65535);
  port_->setSpecialValueText(tr("default"));
  jumpHosts_ = new QLineEdit(this);
  jumpHosts_->setPlaceholderText(tr("gateway.example.org, user@second:2222"));
  identity_ = new QLineEdit(this);
  identity_->setPlaceholderText(tr("~/.ssh/id_ed25519 (its passphrase stays with ssh-agent)"));
  auto* identityRow = new QWidget(this);
  auto* identityLayout = new QHBoxLayout(identityRow);
  identityLayout->setContentsMargins(0, 0, 0, 0);
  auto* browseKey = new QPushButton(tr("Browse…"), this);
  identityLayout->addWidget(identity_);
  identityLayout->addWidget(browseKey);
  reuse_ = new QCheckBox(tr("Reuse one connection (ControlMaster)"), this);
  persist_ = new QSpinBox(this);
  persist_->setRange(0, 86400);
  persist_->setSuffix(tr(" s"));
  workdir_ = new QLineEdit(this);
  workdir_->setPlaceholderText(tr("~/waitscope (empty: home, or beside the trace)"));
  setup_ = new QPlainTextEdit(this);
  setup_->setPlaceholderText(tr("module load openmpi otf2"));
  setup_->setMaximumHeight(80);
  launcher_ = new QComboBox(this);
  launcher_->addItem(tr("mpiexec"), QStringLiteral("mpiexec"));
  launcher_->addItem(tr("srun"), QStringLiteral("srun"));
  launcher_->addItem(tr("Batch job (sbatch)"), QStringLiteral("batch"));
  launcherOptions_ = new QLineEdit(this);
  launcherOptions_->setPlaceholderText(tr("extra options, e.g. --oversubscribe"));
  batchTemplate_ = new QPlainTextEdit(this);
  batchTemplate_->setPlaceholderText(defaultBatchTemplate());
  batchTemplate_->setToolTip(tr("Placeholders: {ranks} {nodes} {trace} {report} {analyzer} {account} {partition} {time}"));
  account_ = new QLineEdit(this);
  partition_ = new QLineEdit(this);
  time_ = new QLineEdit(this);
  nodes_ = new QSpinBox(this);
  nodes_->setRange(0, 100000);
  nodes_->setSpecialValueText(tr("any"));
  analyzer_ = new QLineEdit(this);
  processes_ = new QSpinBox(this);
  processes_->setObjectName(QStringLiteral("processes"));
  processes_->setRange(0, 1 << 20);
  processes_->setSpecialValueText(tr("one per core here, one per rank on a cluster"));
  processes_->setToolTip(tr("Analysis processes: each analyzes a block of the trace's ranks, with the same report; "
                            "never more than the trace has ranks"));
  testButton_ = new QPushButton(tr("Test connection"), this);
  testButton_->setObjectName(QStringLiteral("testButton"));
  testResult_ = new QLabel(this);
  testResult_->setObjectName(QStringLiteral("testResult"));
  testResult_->setWordWrap(true);
  testResult_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  name_->setObjectName(QStringLiteral("name"));
  kind_->setObjectName(QStringLiteral("kind"));
  host_->setObjectName(QStringLiteral("host"));
  launcher_->setObjectName(QStringLiteral("launcher"));

  form->addRow(tr("Name"), name_);
  form->addRow(tr("Runs on"), kind_);
  form->addRow(tr("Host"), host_);
  form->addRow(tr("User"), user_);
  form->addRow(tr("Port"), port_);
  form->addRow(tr("Jump hosts"), jumpHosts_);
  form->addRow(tr("Identity file"), identityRow);
  form->addRow(QString(), reuse_);
  form->addRow(tr("Keep connection open"), persist_);
  form->addRow(tr("Working directory"), workdir_);
  form->addRow(tr("Set-up lines"), setup_);
  form->addRow(tr("Launcher"), launcher_);
  form->addRow(tr("Launcher options"), launcherOptions_);
  form->addRow(tr("Job script"), batchTemplate_);
  form->addRow(tr("Account"), account_);
  form->addRow(tr("Partition"), partition_);
  form->addRow(tr("Time limit"), time_);
  form->addRow(tr("Nodes"), nodes_);
  form->addRow(tr("waitscope-analyze"), analyzer_);
  form->addRow(tr("Analysis processes"), processes_);
  form->addRow(testButton_, testResult_);
  sshWidgets_ = {host_, user_, port_, jumpHosts_, identityRow, reuse_, persist_};
  batchWidgets_ = {batchTemplate_, account_, partition_, time_, nodes_};
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(formWidget);
  scroll->setWidgetResizable(true);

  auto* columns = new QHBoxLayout;
  columns->addLayout(left, 1);
  columns->addWidget(scroll, 3);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(columns);
  if (!loadError.isEmpty()) layout->addWidget(new QLabel(loadError, this));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
  layout->addWidget(buttons);

  connect(buttons, &QDialogButtonBox::accepted, this, &ProfileEditor::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(add, &QPushButton::clicked, this, &ProfileEditor::addProfile);
  connect(duplicate, &QPushButton::clicked, this, &ProfileEditor::duplicateProfile);
  connect(rename, &QPushButton::clicked, this, [this] {
    if (currentRow() < 0) return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename profile"), tr("Name"), QLineEdit::Normal,
                                               model_->profile(currentRow()).name, &ok);
    if (ok && !model_->renameProfile(currentRow(), name))
      QMessageBox::information(this, tr("Rename profile"), tr("The name is empty or used by another profile."));
    loadForm(currentRow());
  });
  connect(remove, &QPushButton::clicked, this, &ProfileEditor::deleteProfile);
  connect(up, &QPushButton::clicked, this, [this] { moveProfile(-1); });
  connect(down, &QPushButton::clicked, this, [this] { moveProfile(+1); });
  connect(import, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import profiles"), {}, tr("Profiles (*.json)"));
    if (!path.isEmpty()) importFrom(path);
  });
  connect(exportButton, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export profiles"), QStringLiteral("waitscope-profiles.json"),
                                                      tr("Profiles (*.json)"));
    if (!path.isEmpty()) exportTo(path);
  });
  connect(browseKey, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Identity file"), QDir::homePath() + QStringLiteral("/.ssh"));
    if (!path.isEmpty()) identity_->setText(path);
  });
  connect(testButton_, &QPushButton::clicked, this, &ProfileEditor::testConnection);
  connect(tester_, &ConnectionTester::finished, this, [this] {
    testButton_->setEnabled(true);
    testResult_->setText(tester_->summary());
  });
  connect(list_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& index) { loadForm(index.isValid() ? index.row() : -1); });
  connect(model_, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& topLeft) {
    if (!loading_ && topLeft.row() == currentRow()) loadForm(currentRow());  // renamed in place
  });

  // Every edit goes straight into the model (Cancel discards all of them).
  for (QLineEdit* e : {name_, user_, jumpHosts_, identity_, workdir_, launcherOptions_, account_, partition_, time_, analyzer_})
    connect(e, &QLineEdit::textEdited, this, &ProfileEditor::storeForm);
  for (QPlainTextEdit* e : {setup_, batchTemplate_}) connect(e, &QPlainTextEdit::textChanged, this, &ProfileEditor::storeForm);
  for (QComboBox* c : {kind_, launcher_}) connect(c, &QComboBox::currentIndexChanged, this, &ProfileEditor::storeForm);
  connect(host_, &QComboBox::currentTextChanged, this, &ProfileEditor::storeForm);
  for (QSpinBox* s : {port_, persist_, nodes_, processes_}) connect(s, &QSpinBox::valueChanged, this, &ProfileEditor::storeForm);
  connect(reuse_, &QCheckBox::toggled, this, &ProfileEditor::storeForm);

  selectRow(model_->rowCount() > 0 ? 0 : -1);
  updateEnabled();
}

int ProfileEditor::currentRow() const {
  const QModelIndex index = list_->currentIndex();
  return index.isValid() ? index.row() : -1;
}

void ProfileEditor::selectRow(int row) {
  if (row < 0 || row >= model_->rowCount()) {
    list_->setCurrentIndex({});
    loadForm(-1);
    return;
  }
  list_->setCurrentIndex(model_->index(row));
  loadForm(row);
}

ConnectionProfile ProfileEditor::formProfile() const {
  ConnectionProfile p;
  p.name = name_->text().trimmed();
  p.kind = connectionKindFromString(kind_->currentData().toString());
  p.host = host_->currentText().trimmed();
  p.user = user_->text().trimmed();
  p.port = port_->value();
  p.jumpHosts = commaList(jumpHosts_->text());
  p.identityFile = identity_->text().trimmed();
  p.reuseConnection = reuse_->isChecked();
  p.controlPersistSeconds = persist_->value();
  p.workingDirectory = workdir_->text().trimmed();
  p.setupLines = lines(setup_);
  p.launcher = launcherKindFromString(launcher_->currentData().toString());
  p.mpiexecOptions = launcherOptions_->text().trimmed();
  p.batchTemplate = batchTemplate_->toPlainText();
  p.account = account_->text().trimmed();
  p.partition = partition_->text().trimmed();
  p.timeLimit = time_->text().trimmed();
  p.nodes = nodes_->value();
  p.analysisProcesses = processes_->value();
  p.analyzerPath = analyzer_->text().trimmed().isEmpty() ? QStringLiteral("waitscope-analyze") : analyzer_->text().trimmed();
  return p;
}

void ProfileEditor::setFormProfile(const ConnectionProfile& p) {
  loading_ = true;
  name_->setText(p.name);
  kind_->setCurrentIndex(kind_->findData(toString(p.kind)));
  host_->setCurrentText(p.host);
  user_->setText(p.user);
  port_->setValue(p.port);
  jumpHosts_->setText(p.jumpHosts.join(QStringLiteral(", ")));
  identity_->setText(p.identityFile);
  reuse_->setChecked(p.reuseConnection);
  persist_->setValue(p.controlPersistSeconds);
  workdir_->setText(p.workingDirectory);
  setup_->setPlainText(p.setupLines.join(QLatin1Char('\n')));
  launcher_->setCurrentIndex(launcher_->findData(toString(p.launcher)));
  launcherOptions_->setText(p.mpiexecOptions);
  batchTemplate_->setPlainText(p.batchTemplate);
  account_->setText(p.account);
  partition_->setText(p.partition);
  time_->setText(p.timeLimit);
  nodes_->setValue(p.nodes);
  processes_->setValue(p.analysisProcesses);
  analyzer_->setText(p.analyzerPath);
  loading_ = false;
  storeForm();
}

void ProfileEditor::loadForm(int row) {
  testResult_->clear();
  if (row < 0) {
    updateEnabled();
    return;
  }
  loading_ = true;
  setFormProfile(model_->profile(row));
  loading_ = false;
  updateEnabled();
}

void ProfileEditor::storeForm() {
  if (loading_ || currentRow() < 0) return;
  loading_ = true;
  ConnectionProfile p = formProfile();
  if (p.name.isEmpty()) p.name = model_->profile(currentRow()).name;
  model_->setProfile(currentRow(), p);
  loading_ = false;
  updateEnabled();
}

void ProfileEditor::updateEnabled() {
  const bool any = currentRow() >= 0;
  const ConnectionProfile p = any ? model_->profile(currentRow()) : ConnectionProfile();
  for (QWidget* w : sshWidgets_) w->setEnabled(any && p.isRemote());
  for (QWidget* w : batchWidgets_) w->setEnabled(any && p.launcher == LauncherKind::Batch);
  testButton_->setEnabled(any && !tester_->isRunning());
}

void ProfileEditor::addProfile() {
  ConnectionProfile p;
  p.name = tr("New profile");
  p.kind = ConnectionKind::Ssh;
  selectRow(model_->addProfile(p));
}

void ProfileEditor::duplicateProfile() {
  if (currentRow() >= 0) selectRow(model_->duplicateProfile(currentRow()));
}

void ProfileEditor::renameProfile() {
  if (currentRow() >= 0) list_->edit(list_->currentIndex());
}

void ProfileEditor::deleteProfile() {
  const int row = currentRow();
  if (row < 0) return;
  model_->removeRows(row, 1);
  selectRow(qMin(row, model_->rowCount() - 1));
}

void ProfileEditor::moveProfile(int delta) {
  const int row = currentRow();
  if (model_->moveProfile(row, delta)) selectRow(row + delta);
}

void ProfileEditor::testConnection() {
  if (currentRow() < 0 || tester_->isRunning()) return;
  testButton_->setEnabled(false);
  testResult_->setText(tr("Testing…"));
  tester_->start(model_->profile(currentRow()));
}

QString ProfileEditor::testResultText() const { return testResult_->text(); }

bool ProfileEditor::importFrom(const QString& path) {
  QString error;
  const QList<ConnectionProfile> imported = ProfileStore::importProfiles(path, &error);
  if (!error.isEmpty()) {
    QMessageBox::warning(this, tr("Import profiles"), error);
    return false;
  }
  int last = -1;
  for (const ConnectionProfile& p : imported) last = model_->addProfile(p);
  if (last >= 0) selectRow(last);
  return true;
}

bool ProfileEditor::exportTo(const QString& path) {
  QString error;
  if (ProfileStore::exportProfiles(model_->profiles(), path, &error)) return true;
  QMessageBox::warning(this, tr("Export profiles"), error);
  return false;
}

bool ProfileEditor::save() {
  QString error;
  if (!store_.save(model_->profiles(), &error)) {
    QMessageBox::warning(this, tr("Save profiles"), error);
    return false;
  }
  emit profilesSaved();
  return true;
}

void ProfileEditor::accept() {
  if (save()) QDialog::accept();
}

}  // namespace waitscope::launch
