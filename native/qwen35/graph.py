"""A small writer for ONNX graphs: named nodes, cached constants, typed inputs and outputs."""

import hashlib
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 21
MS_DOMAIN = "com.microsoft"

ELEMENT_TYPES = {
    np.dtype(np.float32): TensorProto.FLOAT,
    np.dtype(np.float16): TensorProto.FLOAT16,
    np.dtype(np.int64): TensorProto.INT64,
    np.dtype(np.int32): TensorProto.INT32,
    np.dtype(np.uint8): TensorProto.UINT8,
    np.dtype(np.bool_): TensorProto.BOOL,
}


class ExternalData:
    """The .data file beside a model: initializers are written here as they are made.

    Writing each large tensor straight to disk (instead of keeping it in the ModelProto and letting
    onnx.save_model move it out at the end) keeps the proto small, so a tensor of 2 GiB or more
    (one 256-expert layer's gate_up weights) never meets protobuf's 2 GiB message limit, and the
    converter holds no second copy of the weights in memory.
    """

    ALIGN = 64

    def __init__(self, path: Path, threshold: int = 1024):
        self.path, self.threshold = Path(path), threshold
        self.file = open(self.path, "wb")
        self.written = 0

    def append(self, chunks: Iterable[np.ndarray]) -> tuple[int, int]:
        """Write arrays back to back (C order) at the next aligned offset; returns (offset, length)."""
        pad = -self.file.tell() % self.ALIGN
        self.file.write(b"\0" * pad)
        offset = self.file.tell()
        for chunk in chunks:
            np.ascontiguousarray(chunk).tofile(self.file)
        length = self.file.tell() - offset
        self.written += 1
        return offset, length

    def close(self) -> None:
        self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class GraphWriter:
    def __init__(self, name: str, external: ExternalData | None = None):
        self.name = name
        self.external = external
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self.inputs: list[onnx.ValueInfoProto] = []
        self.outputs: list[onnx.ValueInfoProto] = []
        self._taken: set[str] = set()
        self._constants: dict[tuple, str] = {}

    def _claim(self, name: str) -> str:
        if name in self._taken:
            raise ValueError(f"graph name used twice: {name}")
        self._taken.add(name)
        return name

    def input(self, name: str, dtype, shape: list) -> str:
        self.inputs.append(helper.make_tensor_value_info(self._claim(name), ELEMENT_TYPES[np.dtype(dtype)], shape))
        return name

    def output(self, name: str, dtype, shape: list) -> None:
        self.outputs.append(helper.make_tensor_value_info(name, ELEMENT_TYPES[np.dtype(dtype)], shape))

    def weight(self, name: str, array: np.ndarray) -> str:
        if self.external is not None and array.nbytes >= self.external.threshold:
            return self.weight_stream(name, array.dtype, array.shape, [array])
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), self._claim(name)))
        return name

    def weight_stream(self, name: str, dtype, shape: tuple, chunks: Iterable[np.ndarray]) -> str:
        """An initializer given as consecutive pieces (e.g. one expert at a time), so the whole
        tensor never has to exist in memory; external data is required for it."""
        dtype = np.dtype(dtype)
        if self.external is None:
            return self.weight(name, np.concatenate([np.asarray(c, dtype=dtype).reshape(-1) for c in chunks]).reshape(shape))
        offset, length = self.external.append(np.asarray(c, dtype=dtype) for c in chunks)
        expected = int(np.prod(shape)) * dtype.itemsize
        if length != expected:
            raise ValueError(f"{name}: wrote {length} bytes, its shape {tuple(shape)} needs {expected}")
        tensor = onnx.TensorProto(name=self._claim(name), data_type=ELEMENT_TYPES[dtype], dims=list(shape))
        tensor.data_location = onnx.TensorProto.EXTERNAL
        for key, value in (("location", self.external.path.name), ("offset", str(offset)), ("length", str(length))):
            entry = tensor.external_data.add()
            entry.key, entry.value = key, value
        self.initializers.append(tensor)
        return name

    def constant(self, values, dtype=np.int64) -> str:
        """A shared constant initializer, named by its value like the builder's /model/constants."""
        array = np.asarray(values, dtype=dtype)
        key = (np.dtype(dtype).name, array.shape, array.tobytes())
        if key not in self._constants:
            label = str(array.tolist()).replace(" ", "") if array.size <= 8 else f"{list(array.shape)}#{hashlib.sha1(array.tobytes()).hexdigest()[:8]}".replace(" ", "")
            self._constants[key] = self.weight(f"/model/constants/{np.dtype(dtype).name.upper()}/{label}", array)
        return self._constants[key]

    def node(self, op: str, inputs: list[str], name: str, outputs: int | list[str] = 1, domain: str = "", **attrs):
        """Add a node; returns its single output name, or the list of them."""
        if isinstance(outputs, int):
            names = [f"{name}/output_{index}" for index in range(outputs)]
        else:
            names = outputs
        for output in names:
            if output:
                self._claim(output)
        self.nodes.append(helper.make_node(op, inputs, names, name=self._claim(name), domain=domain or None, **attrs))
        return names[0] if len(names) == 1 else names

    def model(self) -> onnx.ModelProto:
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.initializers)
        opsets = [helper.make_opsetid("", OPSET), helper.make_opsetid(MS_DOMAIN, 1)]
        model = helper.make_model(graph, opset_imports=opsets, producer_name="worldloom-qwen35-convert")
        model.ir_version = 10
        return model
