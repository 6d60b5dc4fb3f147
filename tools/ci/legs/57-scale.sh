# Constant memory at scale: utf8tool validates and sanitizes a generated file (256 MiB here, to
# fit the CI time budget; tools/scale_check.sh --size 1024 for the 1 GiB run) with peak RSS under
# 64 MiB, as /usr/bin/time -v measures it.
legs+=(scale)
packages+=(time)
leg_scale() {
  local dir="$build_root/utf8tool"  # shared with the valgrind leg (one build of utf8tool)
  if [[ ! -f $root/examples/utf8tool.cpp ]]; then
    echo "SKIPPED: examples/utf8tool.cpp is not in this tree yet"
    return 0
  fi
  build_utf8tool "$dir" || return 1
  "$root/tools/scale_check.sh" --tool "$dir/examples/utf8tool" --size "${UTF8DFA_SCALE_MIB:-256}" --dir "$dir"
}
