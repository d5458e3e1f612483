"""Workspaces: sanitised names, no way out of the workspaces root, listing and creation."""
from __future__ import annotations

import os

import pytest

from core.store.db import DB_FILE, Store
from core.store.workspace import (WorkspaceError, create_workspace, list_workspaces, sanitize_name,
                            workspace_path, workspaces_root)


def test_root_comes_from_sensemaker_home_or_the_current_directory(tmp_path, monkeypatch):
    assert workspaces_root({"SENSEMAKER_HOME": str(tmp_path / "ws")}) == (tmp_path / "ws").resolve()
    monkeypatch.chdir(tmp_path)
    assert workspaces_root({}) == (tmp_path / "workspaces").resolve()
    assert workspaces_root({"SENSEMAKER_HOME": "  "}) == (tmp_path / "workspaces").resolve()
    monkeypatch.setenv("HOME", str(tmp_path))
    assert workspaces_root({"SENSEMAKER_HOME": "~/sm"}) == (tmp_path / "sm").resolve()


@pytest.mark.parametrize("raw, clean", [
    ("harbour-2024", "harbour-2024"),
    ("My Project", "My-Project"),
    ("../x", "x"),
    ("/etc", "etc"),
    ("a/../../b", "a-b"),
    ("..\\..\\windows", "windows"),
    ("<img src=x onerror=alert(1)>", "img-src-x-onerror-alert-1"),
    ("under_score", "under_score"),
    ("项目 一", "项目-一"),
    ("ｆｕｌｌｗｉｄｔｈ", "fullwidth"),
    ("rtl\u202eevil", "rtl-evil"),
    ("x" * 100, "x" * 64),
])
def test_names_keep_only_letters_digits_dash_underscore(raw, clean):
    assert sanitize_name(raw) == clean


@pytest.mark.parametrize("raw", ["", "..", "/", "../..", "   ", "<>", "\x00", "___"])
def test_names_that_sanitise_to_nothing_are_refused(raw):
    with pytest.raises(WorkspaceError, match="cannot be a workspace name: use letters, digits"):
        sanitize_name(raw)


@pytest.mark.parametrize("name", ["../x", "/etc", "a/../../b", "../../../../tmp", "..%2f..%2fx",
                                  "~root", "$HOME", "x/../../../etc/passwd"])
def test_workspace_paths_never_escape_the_root(tmp_path, name):
    root = tmp_path / "root"
    root.mkdir()
    path = workspace_path(name, root)
    assert path.parent == root.resolve()
    assert path.is_absolute() and ".." not in path.parts


def test_a_symlink_inside_the_root_cannot_lead_outside(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, root / "sneaky")
    with pytest.raises(WorkspaceError, match="points outside"):
        workspace_path("sneaky", root)
    with pytest.raises(WorkspaceError):
        create_workspace("sneaky", root)
    assert not (outside / DB_FILE).exists()


def test_create_and_list_workspaces(tmp_path):
    root = tmp_path / "root"
    assert list_workspaces(root) == []  # a root that does not exist yet
    path = create_workspace("Harbour Study", root)
    assert path == (root / "Harbour-Study").resolve()
    assert (path / DB_FILE).is_file()
    store = Store(path)
    assert store.count("documents") == 0 and store.schema_version() >= 1
    store.close()
    create_workspace("alpha", root)
    assert create_workspace("alpha", root) == (root / "alpha").resolve()  # opening again is fine
    (root / "not_a_workspace").mkdir()
    (root / "stray.txt").write_text("x")
    assert list_workspaces(root) == ["alpha", "Harbour-Study"]


def test_default_root_is_used_when_none_is_given(tmp_path, monkeypatch):
    monkeypatch.setenv("SENSEMAKER_HOME", str(tmp_path / "home"))
    path = create_workspace("default")
    assert path == (tmp_path / "home" / "default").resolve()
    assert list_workspaces() == ["default"]
    assert workspace_path("../default") == path


def test_workspace_error_is_a_user_error():
    from core.errors import UserError, user_message

    with pytest.raises(UserError) as info:
        sanitize_name("///")
    assert user_message(info.value) == ("'///' cannot be a workspace name: use letters, digits, "
                                        "'-' or '_' (it needs at least one letter or digit)")


# -- issue 19: honest names, rename, delete ---------------------------------------------------

@pytest.mark.parametrize("typed, saved", [("../evil", "evil"), ("<b>x</b>", "b-x-b"),
                                          ("My Case 2024", "My-Case-2024")])
def test_a_rewritten_name_is_said(typed, saved):
    from core.store.workspace import name_note
    note = name_note(typed)
    assert note and repr(typed) in note and repr(saved) in note
    assert name_note("harbour-inquiry") is None


def test_creating_an_existing_workspace_says_so(tmp_path):
    create_workspace("dulce", tmp_path)
    with pytest.raises(WorkspaceError, match="'dulce' already exists"):
        create_workspace("dulce", tmp_path, exist_ok=False)


def test_rename_and_delete(tmp_path):
    from core.store.workspace import delete_workspace, rename_workspace
    create_workspace("old", tmp_path)
    create_workspace("taken", tmp_path)
    with pytest.raises(WorkspaceError, match="'taken' already exists"):
        rename_workspace("old", "taken", tmp_path)
    assert rename_workspace("old", "New Name", tmp_path).name == "New-Name"
    assert list_workspaces(tmp_path) == ["New-Name", "taken"]
    delete_workspace("New-Name", tmp_path)
    assert list_workspaces(tmp_path) == ["taken"]
    with pytest.raises(WorkspaceError, match="no workspace named 'ghost'"):
        delete_workspace("ghost", tmp_path)
    with pytest.raises(WorkspaceError):
        delete_workspace("../taken", tmp_path / "sub")  # never outside the root
    assert (tmp_path / "taken").is_dir()
