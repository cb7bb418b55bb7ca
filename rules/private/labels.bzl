"""How rules_gpu names targets in messages."""

def display_label(label):
    """`//pkg:name` for the main repository (not `@@//pkg:name`), the full label otherwise."""
    if label.repo_name == "":
        return "//%s:%s" % (label.package, label.name)
    return str(label)
