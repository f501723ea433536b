#!/bin/sh
# Remove Rotary for this user. Conversations and settings stay unless
# --remove-my-data is given (then the Rotary settings and data folders go too).
set -eu

DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
CONFIG_HOME=${XDG_CONFIG_HOME:-$HOME/.config}
CACHE_HOME=${XDG_CACHE_HOME:-$HOME/.cache}
APP_DIR=$HOME/.local/lib/rotary
REMOVE_DATA=no

for arg in "$@"; do
    case "$arg" in
        --remove-my-data) REMOVE_DATA=yes ;;
        -h|--help) echo "usage: uninstall.sh [--remove-my-data]"; exit 0 ;;
        *) echo "uninstall.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done

rm -rf "$APP_DIR"
# Only our own link: a "rotary" command from somewhere else stays.
if [ -L "$HOME/.local/bin/rotary" ] && [ "$(readlink "$HOME/.local/bin/rotary")" = "$APP_DIR/Rotary" ]; then
    rm -f "$HOME/.local/bin/rotary"
fi
rm -f "$DATA_HOME/applications/rotary.desktop" \
      "$DATA_HOME/icons/hicolor/256x256/apps/rotary.png" \
      "$DATA_HOME/icons/hicolor/scalable/apps/rotary.svg"
rm -rf "$CACHE_HOME/Rotary"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$DATA_HOME/applications" || true

if [ "$REMOVE_DATA" = yes ]; then
    rm -rf "$CONFIG_HOME/Rotary" "$DATA_HOME/Rotary"
    echo "Rotary and your Rotary conversations and settings are removed."
else
    echo "Rotary is removed. Your conversations and settings are kept in $DATA_HOME/Rotary and $CONFIG_HOME/Rotary."
fi
