"""Who is acting: the `Principal` the app and the CLI pass on. Without a login configured the
app and the CLI act as the one local user (`LOCAL`), as Sensemaker always has; with OpenID Connect
configured (pages/components/auth.py) the app acts as the signed-in user, named by the provider's
subject and shown by name."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Principal:
    id: str            # the provider's subject ("sub"), or "local"
    name: str          # what the app shows
    email: str | None = None
    local: bool = False  # the one local user of an app without login

    @property
    def label(self) -> str:
        return self.name if not self.email or self.email == self.name else f"{self.name} ({self.email})"


LOCAL = Principal("local", "Local user", None, local=True)


def from_claims(claims: dict) -> Principal:
    """The signed-in user from the provider's ID-token claims (Streamlit's st.user)."""
    sub = str(claims.get("sub") or claims.get("email") or "")
    if not sub:
        raise ValueError("the identity provider gave no subject for the signed-in user")
    email = claims.get("email")
    name = claims.get("name") or claims.get("preferred_username") or email or sub
    return Principal(sub, str(name), str(email) if email else None)
