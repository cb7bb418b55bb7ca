"""Stub of package_metadata's rule: gazelle's go_repository loads it; no metadata is collected offline."""

def package_metadata(name, visibility = None, **kwargs):
    """Declares an empty target named `name`, so that `default_package_metadata` labels resolve.

    Args:
      name: the target name.
      visibility: passed through.
      **kwargs: purl, attributes and the like; ignored.
    """
    _ = kwargs  # buildifier: disable=unused-variable

    # applicable_licenses = [] keeps the repo's default_package_metadata from applying to this target
    # itself, which would be a dependency cycle.
    native.filegroup(name = name, applicable_licenses = [], visibility = visibility)
