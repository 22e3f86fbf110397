"""How TensorFlow's CPU says no: status code names, and the refusals that mean it has no kernel for
a dtype (no input of ours is at fault). Shared by the live run of the family cases
(generated_cases_in_cpu.py) and its reading of the record (tests/recorded_oracle/
families_in_record.py); imports nothing but the standard library, so the record's reader runs
without TensorFlow or numpy."""

CODE_NAMES = [
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
    "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
    "UNAUTHENTICATED",
]

# TensorFlow's CPU has no kernel for the dtype (NOT_FOUND), or its kernel refuses the dtype
# (UNIMPLEMENTED: Tile of uint16). An op on variables says the same with INVALID_ARGUMENT when it
# finds no kernel (ResourceApplyAdaMax of bfloat16, or a reference op placed in a graph).
NO_KERNEL = {5, 12}
NO_KERNEL_MESSAGE = "No OpKernel was registered to support Op"
# The op allows the dtype but no CPU kernel's constraint does (FusedBatchNormV3's U = bfloat16:
# "Value for attr 'U' of bfloat16 is not in the list of allowed values: float").
NO_KERNEL_CONSTRAINT = "is not in the list of allowed values"


def code_name(code):
    return CODE_NAMES[code] if 0 <= code < len(CODE_NAMES) else str(code)


def no_kernel(code, message):
    return (code in NO_KERNEL or message.startswith(NO_KERNEL_MESSAGE)
            or (code == 3 and message.startswith("Value for attr ")
                and NO_KERNEL_CONSTRAINT in message))
