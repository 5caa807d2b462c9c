"""A small writer for ONNX graphs: named nodes, cached constants, typed inputs and outputs."""

import hashlib

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


class GraphWriter:
    def __init__(self, name: str):
        self.name = name
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
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), self._claim(name)))
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
