"""How rules_gpu names targets in messages."""

def display_label(label):
    """`//pkg:name` for the main repository (not `@@//pkg:name`), the full label otherwise."""
    if label.workspace_name == "" or label.workspace_name == "_main":
        return "//%s:%s" % (label.package, label.name)
    return str(label)
