"""The converted USE-lite ONNX graph run by torch, node by node, its float weights trainable.

Fine-tuning the encoder needs it in PyTorch; rather than rewrite the architecture by hand (and
risk a subtle difference), this runs the very graph the product runs, op by op, with torch's
autograd. After training, `write_onnx` puts the new weights back into the same graph: the product
loads the result exactly as it loads the converted encoder, with nothing exported or re-traced.
Only the ~35 op types the converter emits are implemented (opset 17 semantics).
"""

import onnx
import torch
from onnx import helper, numpy_helper
from torch import nn

DTYPES = {1: torch.float32, 6: torch.int32, 7: torch.int64, 9: torch.bool}


def _attrs(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _ints(t):
    return [int(x) for x in t.reshape(-1).tolist()]


def _slice(x, starts, ends, axes=None, steps=None):
    starts, ends = _ints(starts), _ints(ends)
    axes = _ints(axes) if axes is not None else list(range(len(starts)))
    steps = _ints(steps) if steps is not None else [1] * len(starts)
    index = [slice(None)] * x.dim()
    for s, e, a, st in zip(starts, ends, axes, steps):
        if st != 1:
            raise NotImplementedError("Slice with a step other than 1")
        n = x.shape[a]
        s = max(0, min(n, s + n if s < 0 else s))
        e = max(0, min(n, e + n if e < 0 else e))
        index[a] = slice(s, e)
    return x[tuple(index)]


def _gather_nd(data, indices):
    idx = indices.long()
    k = idx.shape[-1]
    flat = idx.reshape(-1, k)
    out = data[tuple(flat[:, j] for j in range(k))]
    return out.reshape(*idx.shape[:-1], *data.shape[k:])


def _scatter_nd(data, indices, updates):
    out = data.clone()
    idx = indices.long()
    k = idx.shape[-1]
    flat = idx.reshape(-1, k)
    out[tuple(flat[:, j] for j in range(k))] = updates.reshape(flat.shape[0], *data.shape[k:])
    return out


def _reshape(x, shape, allowzero):
    dims = _ints(shape)
    if not allowzero:
        dims = [x.shape[i] if d == 0 else d for i, d in enumerate(dims)]
    return x.reshape(dims)


def _squeeze(x, axes=None):
    if axes is None:
        return x.squeeze()
    for a in sorted((a % x.dim() for a in _ints(axes)), reverse=True):
        x = x.squeeze(a)
    return x


def _unsqueeze(x, axes):
    rank = x.dim() + len(_ints(axes))
    for a in sorted(a % rank for a in _ints(axes)):
        x = x.unsqueeze(a)
    return x


def _split(x, split, axis):
    return list(torch.split(x, _ints(split), dim=axis))


def _run(op, inputs, a):
    i = inputs
    if op == "Cast":
        return i[0].to(DTYPES[a["to"]])
    if op == "Slice":
        return _slice(*i)
    if op in ("Greater", "Less", "Add", "Sub", "Mul", "Div", "Max"):
        fn = {"Greater": torch.gt, "Less": torch.lt, "Add": torch.add, "Sub": torch.sub, "Mul": torch.mul, "Div": torch.div, "Max": torch.maximum}[op]
        if op == "Div" and not i[0].is_floating_point():
            return torch.div(i[0], i[1], rounding_mode="trunc")
        return fn(i[0], i[1])
    if op == "NonZero":
        return torch.nonzero(i[0]).t().contiguous()
    if op == "Transpose":
        return i[0].permute(*a["perm"])
    if op == "GatherND":
        return _gather_nd(i[0], i[1])
    if op == "Gather":
        return torch.index_select(i[0], a.get("axis", 0), i[1].long().reshape(-1)).reshape(
            *i[0].shape[: a.get("axis", 0)], *i[1].shape, *i[0].shape[a.get("axis", 0) + 1 :]
        )
    if op == "Shape":
        return torch.tensor(list(i[0].shape), dtype=torch.int64)
    if op == "Concat":
        return torch.cat(i, dim=a["axis"])
    if op == "ConstantOfShape":
        value = numpy_helper.to_array(a["value"])
        return torch.full(_ints(i[0]), float(value.reshape(-1)[0]), dtype=DTYPES[a["value"].data_type])
    if op == "ScatterND":
        return _scatter_nd(*i)
    if op == "Squeeze":
        return _squeeze(*i)
    if op == "Unsqueeze":
        return _unsqueeze(*i)
    if op in ("Sin", "Cos", "Sqrt", "Reciprocal", "Relu", "Tanh", "Not", "Identity"):
        fn = {"Sin": torch.sin, "Cos": torch.cos, "Sqrt": torch.sqrt, "Reciprocal": torch.reciprocal, "Relu": torch.relu, "Tanh": torch.tanh, "Not": torch.logical_not, "Identity": lambda x: x}[op]
        return fn(i[0])
    if op == "ReduceMean":
        return i[0].mean(dim=a["axes"], keepdim=bool(a.get("keepdims", 1)))
    if op == "ReduceProd":
        x = i[0]
        for axis in sorted((ax % x.dim() for ax in a["axes"]), reverse=True):
            x = x.prod(dim=axis, keepdim=bool(a.get("keepdims", 1)))
        return x
    if op == "ReduceSum":
        axes = _ints(i[1]) if len(i) > 1 and i[1] is not None else list(range(i[0].dim()))
        return i[0].sum(dim=axes, keepdim=bool(a.get("keepdims", 1)))
    if op == "MatMul":
        return torch.matmul(i[0], i[1])
    if op == "Split":
        return _split(i[0], i[1], a.get("axis", 0))
    if op == "Reshape":
        return _reshape(i[0], i[1], a.get("allowzero", 0))
    if op == "Softmax":
        return torch.softmax(i[0], dim=a.get("axis", -1))
    if op == "Range":
        return torch.arange(int(i[0]), int(i[1]), int(i[2]), dtype=i[0].dtype)
    raise NotImplementedError(f"ONNX op {op}")


class OnnxModule(nn.Module):
    """`forward(ids)` → the graph's outputs by name ({"embeddings", "token_states"})."""

    def __init__(self, path: str):
        super().__init__()
        self.model = onnx.load(path)
        self.weights = nn.ParameterDict()
        self.constants = {}
        self.names = {}
        for k, init in enumerate(self.model.graph.initializer):
            value = torch.from_numpy(numpy_helper.to_array(init).copy())
            if value.is_floating_point() and value.numel() > 1:
                key = f"w{k}"
                self.names[init.name] = key
                self.weights[key] = nn.Parameter(value)
            else:
                self.constants[init.name] = value
        self.nodes = [(n.op_type, list(n.input), list(n.output), _attrs(n)) for n in self.model.graph.node]
        self.input_name = self.model.graph.input[0].name

    def forward(self, ids):
        values = {self.input_name: ids}
        get = lambda name: None if name == "" else (self.weights[self.names[name]] if name in self.names else self.constants[name] if name in self.constants else values[name])  # noqa: E731
        for op, ins, outs, a in self.nodes:
            result = _run(op, [get(n) for n in ins], a)
            if isinstance(result, list):
                values.update(zip(outs, result))
            else:
                values[outs[0]] = result
        return {o.name: values[o.name] for o in self.model.graph.output}

    def write_onnx(self, path: str):
        """The same graph with this module's weights."""
        model = onnx.ModelProto()
        model.CopyFrom(self.model)
        for init in model.graph.initializer:
            if init.name in self.names:
                array = self.weights[self.names[init.name]].detach().numpy()
                init.CopyFrom(numpy_helper.from_array(array, init.name))
        onnx.save(model, path)
