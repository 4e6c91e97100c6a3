// NOMAIN: error: cmm-tile: no func.func @main with a body to tile
func.func @other() {
  return
}
