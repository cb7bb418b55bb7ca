"""Stub of buildozer's module extension: Bazel's bazel_tools uses it; nothing here runs buildozer."""

def _empty_repo_impl(rctx):
    rctx.file("BUILD.bazel", "")

_empty_repo = repository_rule(implementation = _empty_repo_impl)

def _buildozer_binary_impl(_mctx):
    _empty_repo(name = "buildozer_binary")

buildozer_binary = module_extension(
    implementation = _buildozer_binary_impl,
    tag_classes = {"buildozer": tag_class(attrs = {"version": attr.string(), "sha256": attr.string_dict()})},
)
