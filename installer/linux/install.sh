#!/bin/sh
# Install Rotary for this user only (no administrator rights): the app into
# ~/.local/lib/rotary, a "rotary" command, a menu entry and its icon.
# Re-running it upgrades in place; conversations and settings are never touched.
set -eu

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

echo "Rotary is installed. Open it from your applications menu, or run: $BIN_DIR/rotary"
