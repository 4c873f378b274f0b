#!/usr/bin/env bash
# Installs every Debian 12 package Waitscope needs to build, test and run.
# Idempotent: packages already present are skipped; works as root or as a user with sudo.
# `setup.sh --mpich` also installs MPICH beside Open MPI (make test-mpich); Open MPI stays the
# default mpicc/mpiexec.
set -euo pipefail

packages=(
  # build tools
  build-essential cmake ninja-build pkg-config git libgtest-dev
  # backend: MPI, OTF2, SQLite
  openmpi-bin libopenmpi-dev libotf2-trace-dev otf2-tools libsqlite3-dev sqlite3
  # Cube 4 import: compressed metric data
  zlib1g-dev
  # debug info for call-site resolution of the recorder
  binutils-dev libdw-dev elfutils
  # desktop app: Qt 6
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libqt6sql6-sqlite libgl-dev
  qt6-qpa-plugins libxkbcommon-dev
  # headless GUI tests and screenshots
  xvfb xauth fonts-dejavu-core
  # launcher tests: ssh client and a real sshd on 127.0.0.1 (tests/gui/launch)
  openssh-client openssh-server
  # packaging (cpack DEB, dpkg-shlibdeps) and its checks: man pages, desktop file, AppStream, recipes
  dpkg-dev groff-base man-db bsdextrautils desktop-file-utils appstream libxml2-utils python3
  # the user guide's figures (scripts/make-screenshots.sh): smaller PNGs
  pngquant
  # benchmarks: peak memory of every analysis process (scripts/bench-fewer-processes.sh)
  time
  # the Python package (python/, docs/python.md), its tests and `pip install ./python` into a venv
  python3-numpy python3-pandas python3-matplotlib python3-pytest python3-pip python3-venv
)

if [ "${1:-}" = "--mpich" ]; then
  packages+=(mpich libmpich-dev)
fi

# Debian's mpi and mpirun alternatives (mpicc, mpiexec) name Open MPI, also after MPICH is installed.
keep_open_mpi_default() {
  local group target
  for group in mpi:/usr/bin/mpicc.openmpi mpirun:/usr/bin/mpirun.openmpi; do
    target=${group#*:}
    group=${group%%:*}
    if [ -e "$target" ] && [ "$(update-alternatives --query "$group" 2>/dev/null | sed -n 's/^Value: //p')" != "$target" ]; then
      "${sudo[@]}" update-alternatives --set "$group" "$target"
    fi
  done
}

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "setup: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi
trap keep_open_mpi_default EXIT

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
