// gpux-stream-from-argument leaves a function that creates its own stream on
// it, and says so instead of returning it unchanged in silence.
// RUN: imex-opt --gpux-stream-from-argument --verify-diagnostics %s

func.func @own_stream() {
  // expected-warning @+1 {{this function creates its own stream; gpux-stream-from-argument moves only upstream gpu host ops onto the caller's stream: run it instead of gpux-insert-stream, or pass the stream in with gpux ops yourself}}
  %s = gpux.create_stream : () -> !gpux.StreamType
  gpux.destroy_stream %s : (!gpux.StreamType) -> ()
  return
}
