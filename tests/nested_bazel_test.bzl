"""nested_bazel_test: a test that runs Bazel in users' repositories which depend on this checkout.

rules_go's go_bazel_test, for shell: the test's runfiles hold the files of rules_gpu (//:module_files,
or more with `data`) and of each user's repository it builds (tests/integration/NAME); the test
copies them into a directory of its own and runs a nested Bazel there (tests/userrepo.sh). Its
result is cached like any test's: it runs again only when one of those files changes.
"""

load("@rules_shell//shell:sh_test.bzl", "sh_test")

def user_repository(name):
    """The files of the user's repository tests/integration/NAME, as a filegroup of that name.

    The directory is not a package of this repository (.bazelrc lists its packages in
    --deleted_packages), so that one glob holds its BUILD files too.

    Args:
      name: the directory under tests/integration.
    """
    native.filegroup(
        name = name,
        testonly = True,
        # A file the tests write into the repository (hermetic's archive pins) is not an input.
        srcs = native.glob([name + "/**"], exclude = [name + "/cuda_archives.MODULE.bazel"]),
    )

def nested_bazel_test(name, src, repositories = [], data = [], module_files = "//tests:module_files", tags = [], **kwargs):
    """A test that runs Bazel in users' repositories (tests/integration/REPO) over this checkout.

    Tagged `local`: a nested Bazel needs its own output root, outside any sandbox. Bazel runs such
    tests side by side as its --local_test_jobs and the machine's cores allow.

    Args:
      name: the test's name.
      src: the test's script; it sources tests/userrepo.sh (and tests/integration/scenario.sh).
      repositories: the users' repositories it builds, by directory (user_repository targets).
      data: more runfiles.
      module_files: the checkout's files that the users' repositories get as rules_gpu.
      tags: more tags.
      **kwargs: passed to sh_test (size, timeout, ...).
    """
    kwargs.setdefault("size", "large")

    # A clean nested build compiles rules_gpu's helper and Go's standard library: minutes, more on a
    # machine that runs two such tests at once.
    kwargs.setdefault("timeout", "eternal")
    sh_test(
        name = name,
        srcs = [src],
        data = [
            module_files,
            "//tests:lib",
        ] + [":" + r for r in repositories] + data,
        # The user's HOME, as outside Bazel: the nested Bazel reads its ~/.bazelrc, and Go builds
        # (tests/servers.sh builds the servers) use its caches (Bazel gives a test HOME=TEST_TMPDIR).
        env_inherit = ["HOME"],
        tags = ["local"] + tags,
        **kwargs
    )
