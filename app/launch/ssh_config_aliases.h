#pragma once
// The host aliases of an OpenSSH client configuration (~/.ssh/config), offered
// in the profile editor. Only concrete names are returned: patterns with * ? !
// match many hosts and are no alias one can connect to.
#include <QString>
#include <QStringList>

namespace waitscope::launch {

// Aliases of `configFile` and of the files it Includes (relative Include paths
// are resolved against ~/.ssh, as ssh does), in file order without duplicates.
QStringList sshConfigAliases(const QString& configFile);

// ~/.ssh/config of the current user.
QString defaultSshConfigFile();

}  // namespace waitscope::launch
