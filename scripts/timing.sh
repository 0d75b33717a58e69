# Sourced by the scripts: `timed <label> <command...>` runs the command and
# prints how long it took, so a CI log shows the time of every stage (ctest
# prints the time of the test stages itself).
timed() {
  local label="$1" start=$SECONDS
  shift
  "$@"
  local took=$((SECONDS - start))
  printf 'time: %s: %dm%02ds\n' "$label" $((took / 60)) $((took % 60))
}
