// What to do about a graph onnxruntime would not open, from what onnxruntime said: a file that
// is not ONNX, external data shorter than the tensors the graph reads from it, an operator this
// onnxruntime does not have. "Damaged" is said only for the first two.

export function onnxOpenAdvice(said: string): string {
  if (/no op registered|could not find an implementation|not a registered function|unrecognized op/i.test(said)) {
    return 'The graph uses an operator this onnxruntime does not have: convert the model again with `worldloom model:convert`, or update Worldloom.';
  }
  if (/GetExtDataFromTensorProto|out of bounds or can not be read in full/i.test(said)) {
    return 'A weights file beside the graph (its external data) is shorter than the tensors the graph says it holds: copy or download the folder again, every file whole.';
  }
  if (/protobuf parsing failed|parsefromstring|invalid model|no graph/i.test(said)) {
    return 'The graph is not a readable ONNX model (damaged, cut short, or another kind of file): convert the model again into an empty folder or download it again.';
  }
  return 'The file may be truncated or not an ONNX model; rebuild or re-download the model folder.';
}
