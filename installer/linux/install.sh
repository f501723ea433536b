#!/bin/sh
# Install Rotary for this user only (no administrator rights): the app into
# ~/.local/lib/rotary, a "rotary" command, a menu entry and its icon.
# Re-running it upgrades in place; conversations and settings are never touched.
# It asks nothing, so IT can run it unattended. With --policy FILE (as root) it also
# places the organisation's settings file where every user's Rotary reads it:
#   sudo sh install.sh --policy office-policy.toml     (docs/deployment.md)
set -eu

POLICY=
while [ $# -gt 0 ]; do
    case $1 in
        --policy) POLICY=${2:?install.sh: --policy needs a file}; shift 2 ;;
        *) echo "install.sh: unknown option $1 (only --policy FILE)" >&2; exit 2 ;;
    esac
done
# The folder the organisation's file goes to (ROTARY_POLICY_DIR: tests, unusual systems).
POLICY_DIR=${ROTARY_POLICY_DIR:-/etc/rotary}
if [ -n "$POLICY" ]; then
    if [ ! -f "$POLICY" ]; then
        echo "install.sh: the policy file $POLICY does not exist" >&2
        exit 1
    fi
    if ! mkdir -p "$POLICY_DIR" 2>/dev/null || ! cp "$POLICY" "$POLICY_DIR/policy.toml.new.$$" 2>/dev/null; then
        echo "install.sh: cannot write $POLICY_DIR (run it as root, e.g. with sudo)" >&2
        exit 1
    fi
    chmod 644 "$POLICY_DIR/policy.toml.new.$$"
    mv "$POLICY_DIR/policy.toml.new.$$" "$POLICY_DIR/policy.toml"
fi

HERE=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
APP_DIR=$HOME/.local/lib/rotary
BIN_DIR=$HOME/.local/bin
DESKTOP_DIR=$DATA_HOME/applications
ICON_DIR=$DATA_HOME/icons/hicolor

if [ ! -x "$HERE/Rotary/Rotary" ]; then
    echo "install.sh: the Rotary folder is missing next to this script" >&2
    exit 1
fi

mkdir -p "$APP_DIR.new.$$"
cp -a "$HERE/Rotary/." "$APP_DIR.new.$$/"
cp "$HERE/uninstall.sh" "$APP_DIR.new.$$/uninstall.sh"
# Swap the whole folder at once, so a running or half-copied old version never mixes in.
if [ -d "$APP_DIR" ]; then mv "$APP_DIR" "$APP_DIR.old.$$"; fi
mv "$APP_DIR.new.$$" "$APP_DIR"
rm -rf "$APP_DIR.old.$$"

mkdir -p "$BIN_DIR" "$DESKTOP_DIR" "$ICON_DIR/256x256/apps" "$ICON_DIR/scalable/apps"
ln -sf "$APP_DIR/Rotary" "$BIN_DIR/rotary"
cp "$HERE/icons/rotary.png" "$ICON_DIR/256x256/apps/rotary.png"
cp "$HERE/icons/rotary.svg" "$ICON_DIR/scalable/apps/rotary.svg"
sed "s|@EXEC@|$APP_DIR/Rotary|g" "$HERE/rotary.desktop" > "$DESKTOP_DIR/rotary.desktop"
chmod 644 "$DESKTOP_DIR/rotary.desktop"

command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$DESKTOP_DIR" || true
command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$ICON_DIR" || true

if [ -n "$POLICY" ]; then echo "The organisation's settings are in $POLICY_DIR/policy.toml."; fi
echo "Rotary is installed. Open it from your applications menu, or run: $BIN_DIR/rotary"
