# Formatting: every C++ source and header of the project (the generated single header aside) is as
# clang-format leaves it, with the repository's .clang-format.
packages+=(clang-format)
legs+=(format)
leg_format() {
  local files
  mapfile -t files < <(git -C "$root" ls-files '*.hpp' '*.cpp' | grep -v '^single_include/')
  ((${#files[@]} > 0)) || return 1
  (cd "$root" && clang-format --dry-run -Werror "${files[@]}") || return 1
  echo "${#files[@]} files formatted"
}
