"""if_cuda: a value for builds with CUDA and another for builds without (rules_cuda's if_cuda example's shape)."""

def if_cuda(if_true, if_false = []):
    """`if_true` when CUDA is enabled, else `if_false`."""
    return select({
        "@rules_cuda//cuda:is_enabled": if_true,
        "//conditions:default": if_false,
    })
