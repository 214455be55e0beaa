#!/bin/bash
# Debian's Chromium with every --disable-features=… argument merged into one. Chromium keeps only the last
# --disable-features it is given, so a list of our own after Playwright's would switch Playwright's back on
# (measured: a second --disable-features re-enabled the first one's FencedFrames); Playwright merges nothing and
# its ignoreDefaultArgs matches whole arguments. Used by launchChromium (browser.ts), which names the browser in
# CHROMIUM_LAUNCHER_EXEC (its spec names a script that prints the arguments instead).
disabled=()
args=()
for arg in "$@"; do
  case "$arg" in
    --disable-features=*) disabled+=("${arg#--disable-features=}") ;;
    *) args+=("$arg") ;;
  esac
done
if [ ${#disabled[@]} -gt 0 ]; then
  IFS=,
  args+=("--disable-features=${disabled[*]}")
  unset IFS
fi
exec "${CHROMIUM_LAUNCHER_EXEC:?chromium-launcher: CHROMIUM_LAUNCHER_EXEC names no browser}" "${args[@]}"
