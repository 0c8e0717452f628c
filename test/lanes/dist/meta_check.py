#!/usr/bin/env python3
# Copyright (c) 2026, pg_uuidx developers (PostgreSQL License, see LICENSE)
"""test/lanes/dist/meta_check.py [--release] [META.json]

Checks META.json against the PGXN Meta Spec 1.0.0 (https://pgxn.org/meta/spec.txt)
and against the tree it describes: the version is the control file's
default_version as a SemVer, the provided file is the one install script
(pg_uuidx--1.0.sql: every later version is an update of it), and the provided
file and docfile exist.
Debian has no packaged PGXN validator, so this is our own reading of the spec's
rules (required keys, types, SemVer versions, license keys, prereq phases and
relationships, resource shapes).

--release also refuses what must not be uploaded: release_status other than
"stable", placeholder resources (*.example hosts), a CHANGELOG without a dated
section for this version, a debian/changelog for another version or still
UNRELEASED.

Prints "META.json is OK" or one line per problem and exits 1.
"""
import json
import os
import re
import sys

SEMVER = re.compile(r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+)?$")
# a prereq version: "0" (any), a SemVer, or comparisons such as ">= 1.2.0, < 2.0.0"
VERSION_RANGE = re.compile(
    r"^\s*(0|(?:(?:[<>]=?|==|!=)\s*)?%s)(\s*,\s*(?:[<>]=?|==|!=)\s*%s)*\s*$"
    % ((SEMVER.pattern[1:-1],) * 2))
URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://[^\s/]+(/\S*)?$")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")
TERM = re.compile(r"^[^/\\\s\x00-\x1f\x7f]{2,}$")
LICENSES = {
    "agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd",
    "freebsd", "gfdl_1_2", "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1",
    "lgpl_3_0", "mit", "mozilla_1_0", "mozilla_1_1", "openssl", "perl_5",
    "postgresql", "qpl_1_0", "ssleay", "sun", "zlib", "open_source",
    "restricted", "unrestricted", "unknown",
}
TOP_REQUIRED = {"name", "version", "abstract", "maintainer", "license", "provides", "meta-spec"}
TOP_OPTIONAL = {"description", "generated_by", "tags", "no_index", "prereqs",
                "release_status", "resources"}
PHASES = {"configure", "build", "test", "runtime", "develop"}
RELATIONSHIPS = {"requires", "recommends", "suggests", "conflicts"}

errors = []


def err(where, msg):
    errors.append("%s: %s" % (where, msg))


def custom(key):
    """Keys beginning with x_ or X_ are free for anyone (spec: Custom Keys)."""
    return key.lower().startswith("x_")


def check_keys(where, obj, required, optional):
    if not isinstance(obj, dict):
        err(where, "must be an object")
        return False
    for k in sorted(required - obj.keys()):
        err(where, "missing mandatory key '%s'" % k)
    for k in sorted(obj.keys() - required - optional):
        if not custom(k):
            err(where, "unknown key '%s' (custom keys start with x_)" % k)
    return True


def check_string(where, v, pattern=None, what=None):
    if not isinstance(v, str) or not v:
        err(where, "must be a non-empty string")
    elif pattern is not None and not pattern.match(v):
        err(where, "'%s' is not a valid %s" % (v, what))


def check_meta(meta, root):
    check_keys("META.json", meta, TOP_REQUIRED, TOP_OPTIONAL)
    check_string("name", meta.get("name"), TERM, "term (2+ chars, no slash, backslash, space or control)")
    check_string("version", meta.get("version"), SEMVER, "SemVer")
    check_string("abstract", meta.get("abstract"))
    for key in ("description", "generated_by"):
        if key in meta:
            check_string(key, meta[key])

    m = meta.get("maintainer")
    if isinstance(m, list):
        if not m:
            err("maintainer", "must not be empty")
        for i, s in enumerate(m):
            check_string("maintainer[%d]" % i, s)
    else:
        check_string("maintainer", m)

    lic = meta.get("license")
    if isinstance(lic, str):
        if lic not in LICENSES:
            err("license", "'%s' is not a license key of the spec" % lic)
    elif isinstance(lic, list):
        for s in lic:
            if s not in LICENSES:
                err("license", "'%s' is not a license key of the spec" % s)
    elif isinstance(lic, dict):
        for name, url in lic.items():
            check_string("license.%s" % name, url, URI, "URI")
    else:
        err("license", "must be a string, an array or an object")

    provides = meta.get("provides")
    if isinstance(provides, dict):
        if not provides:
            err("provides", "must name at least one extension")
        for ext, p in provides.items():
            where = "provides.%s" % ext
            if not TERM.match(ext):
                err(where, "'%s' is not a valid extension name" % ext)
            if not check_keys(where, p, {"file", "version"}, {"abstract", "docfile"}):
                continue
            check_string(where + ".version", p.get("version"), SEMVER, "SemVer")
            for key in ("file", "docfile"):
                if key in p:
                    check_string("%s.%s" % (where, key), p[key])
                    if isinstance(p[key], str) and not os.path.isfile(os.path.join(root, p[key])):
                        err("%s.%s" % (where, key), "'%s' does not exist" % p[key])
            if "abstract" in p:
                check_string(where + ".abstract", p["abstract"])
    elif provides is not None:
        err("provides", "must be an object")

    spec = meta.get("meta-spec")
    if check_keys("meta-spec", spec, {"version"}, {"url"}):
        check_string("meta-spec.version", spec.get("version"), re.compile(r"^1\.0\.[0-9]+$"), "1.0.x spec version")
        if "url" in spec:
            check_string("meta-spec.url", spec["url"], URI, "URI")

    if "release_status" in meta and meta["release_status"] not in ("stable", "testing", "unstable"):
        err("release_status", "must be stable, testing or unstable")

    if "tags" in meta:
        tags = meta["tags"]
        if not isinstance(tags, list) or not tags:
            err("tags", "must be a non-empty array")
        else:
            for t in tags:
                if not isinstance(t, str) or not 0 < len(t) < 256 or re.search(r"[/\\\x00-\x1f\x7f]", t):
                    err("tags", "'%s' is not a valid tag" % t)

    if "no_index" in meta and check_keys("no_index", meta["no_index"], set(), {"file", "directory"}):
        for key, paths in meta["no_index"].items():
            if not isinstance(paths, list) or not all(isinstance(s, str) and s for s in paths):
                err("no_index.%s" % key, "must be an array of paths")

    if "prereqs" in meta and check_keys("prereqs", meta["prereqs"], set(), PHASES):
        for phase, rels in meta["prereqs"].items():
            if not check_keys("prereqs.%s" % phase, rels, set(), RELATIONSHIPS):
                continue
            for rel, deps in rels.items():
                if not isinstance(deps, dict):
                    err("prereqs.%s.%s" % (phase, rel), "must be an object")
                    continue
                for dep, ver in deps.items():
                    where = "prereqs.%s.%s.%s" % (phase, rel, dep)
                    if not isinstance(ver, str) or not VERSION_RANGE.match(ver):
                        err(where, "'%s' is not a version or version range" % ver)

    if "resources" in meta:
        res = meta["resources"]
        if check_keys("resources", res, set(), {"homepage", "bugtracker", "repository"}):
            if "homepage" in res:
                check_string("resources.homepage", res["homepage"], URI, "URI")
            bt = res.get("bugtracker")
            if bt is not None and check_keys("resources.bugtracker", bt, set(), {"web", "mailto"}):
                if not bt:
                    err("resources.bugtracker", "needs web or mailto")
                if "web" in bt:
                    check_string("resources.bugtracker.web", bt["web"], URI, "URI")
                if "mailto" in bt:
                    check_string("resources.bugtracker.mailto", bt["mailto"], EMAIL, "email address")
            repo = res.get("repository")
            if repo is not None and check_keys("resources.repository", repo, set(), {"url", "web", "type"}):
                if not repo:
                    err("resources.repository", "needs url or web")
                for key in ("url", "web"):
                    if key in repo:
                        check_string("resources.repository." + key, repo[key], URI, "URI")
                if "url" in repo and "type" not in repo:
                    err("resources.repository", "type is required with url")
                if "type" in repo:
                    check_string("resources.repository.type", repo["type"], re.compile(r"^[a-z]+$"), "lower-case VCS name")


def control_version(root, ext):
    with open(os.path.join(root, ext + ".control")) as f:
        m = re.search(r"^default_version\s*=\s*'([^']*)'", f.read(), re.M)
    return m.group(1) if m else None


def check_tree(meta, root):
    """META.json must describe the current version of this tree."""
    ext = meta.get("name")
    if not isinstance(ext, str) or not os.path.isfile(os.path.join(root, "%s.control" % ext)):
        err("name", "no %s.control beside META.json" % ext)
        return
    cv = control_version(root, ext)
    want = cv + ".0" if cv and cv.count(".") == 1 else cv
    if meta.get("version") != want:
        err("version", "'%s' but %s.control's default_version is '%s' (expected '%s')"
            % (meta.get("version"), ext, cv, want))
    p = (meta.get("provides") or {}).get(ext)
    if not isinstance(p, dict):
        err("provides", "does not provide the extension %s" % ext)
        return
    if p.get("version") != meta.get("version"):
        err("provides.%s.version" % ext, "differs from the distribution version")
    # the one install script, the base every version is made from (the
    # others are updates, ext--A--B.sql)
    base = sorted(f for f in os.listdir(root)
                  if re.fullmatch(r"%s--[^-]+\.sql" % re.escape(ext), f))
    if p.get("file") not in base or len(base) != 1:
        err("provides.%s.file" % ext, "'%s' is not the install script (%s)"
            % (p.get("file"), ", ".join(base) or "none"))


def check_release(meta, root):
    version = meta.get("version", "")
    if meta.get("release_status") != "stable":
        err("release_status", "'%s': set \"stable\" to release" % meta.get("release_status"))
    if re.search(r'\.example[/"]', json.dumps(meta.get("resources", {}))):
        err("resources", "placeholder addresses (*.example): put the real ones in")
    short = re.sub(r"\.0$", "", version)
    with open(os.path.join(root, "CHANGELOG.md")) as f:
        if not re.search(r"^## %s \(\d{4}-\d{2}-\d{2}\)$" % re.escape(short), f.read(), re.M):
            err("CHANGELOG.md", "no dated section '## %s (YYYY-MM-DD)'" % short)
    deb = os.path.join(root, "debian", "changelog")
    if os.path.isfile(deb):
        with open(deb) as f:
            first = f.readline()
        m = re.match(r"^\S+ \(([^)-]+)-[^)]+\) (\S+);", first)
        if not m or m.group(1) != version:
            err("debian/changelog", "top entry is not for %s" % version)
        elif m.group(2) == "UNRELEASED":
            err("debian/changelog", "top entry is still UNRELEASED")


def main(argv):
    release = "--release" in argv
    args = [a for a in argv if a != "--release"]
    path = args[0] if args else "META.json"
    root = os.path.dirname(os.path.abspath(path))
    try:
        with open(path) as f:
            meta = json.load(f)
    except (OSError, ValueError) as e:
        print("%s is invalid: %s" % (path, e))
        return 1
    if not isinstance(meta, dict):
        print("%s is invalid: not a JSON object" % path)
        return 1
    check_meta(meta, root)
    check_tree(meta, root)
    if release:
        check_release(meta, root)
    if errors:
        print("%s is invalid:" % path)
        for e in errors:
            print("  " + e)
        return 1
    print("%s is OK%s" % (path, " for release" if release else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
