// Host code only: no GPU target.
func.func @main() {
  return
}
