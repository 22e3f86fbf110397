"""The functions a release's own plugin-facing headers declare (`TF_CAPI_EXPORT ... NAME(`), so
the facts can say which declared function no library of the release defines: a plugin compiles
against the header and is then refused at load (`undefined symbol`)."""
import os
import re

HEADERS = (
    "tensorflow/c/c_api.h",
    "tensorflow/c/kernels.h",
    "tensorflow/c/kernels_experimental.h",
    "tensorflow/c/ops.h",
    "tensorflow/c/tf_buffer.h",
    "tensorflow/c/tf_datatype.h",
    "tensorflow/c/tf_status.h",
    "tensorflow/c/tf_tensor.h",
    "tensorflow/c/experimental/grappler/grappler.h",
    "tensorflow/c/experimental/next_pluggable_device/c_api.h",
    "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h",
    "tensorflow/c/experimental/stream_executor/stream_executor.h",
)
_DECLARATION = re.compile(r"\bTF_CAPI_EXPORT\b([^;{]*?)\b(TFE?_\w+)\s*\(")


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def declared(include):
    """{header: [TF_*/TFE_* functions it declares]}; null for a header the release lacks."""
    result = {}
    for header in HEADERS:
        path = os.path.join(include, header)
        if not os.path.exists(path):
            result[header] = None
            continue
        with open(path, encoding="utf-8", errors="replace") as source:
            text = _strip_comments(source.read())
        result[header] = sorted({match.group(2) for match in _DECLARATION.finditer(text)})
    return result
