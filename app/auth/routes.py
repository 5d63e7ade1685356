from __future__ import annotations

from flask import flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import current_user, login_required, login_user, logout_user
from werkzeug.wrappers import Response

from ..extensions import db
from ..models import User
from ..services import ServiceError
from ..services.accounts import authenticate, change_password, register
from ..web import client_ip, safe_next_url, show_service_error
from . import bp
from .forms import ChangePasswordForm, LoginForm, LogoutForm, RegisterForm


def start_session(user: User) -> None:
    """A fresh session on login: drop everything but the language, then log in."""
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang
    session.permanent = True
    login_user(user)


def _next_target() -> str:
    target = request.form.get("next") or request.args.get("next")
    return safe_next_url(target) or url_for("main.home")


@bp.route("/register", methods=["GET", "POST"])
def register_view() -> ResponseReturnValue:
    form = RegisterForm()
    if request.method == "GET":
        form.next.data = safe_next_url(request.args.get("next")) or ""
    if form.validate_on_submit():
        try:
            user = register(
                form.username.data or "", form.display_name.data or "", form.password.data or ""
            )
        except ServiceError as error:
            db.session.rollback()
            show_service_error(form, error)
        else:
            db.session.commit()
            start_session(user)
            flash(_("Welcome, %(name)s! Your account is ready.", name=user.display_name), "success")
            return redirect(_next_target())
    status = 200 if request.method == "GET" else 422
    return render_template("auth/register.html", form=form), status


@bp.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    if current_user.is_authenticated and request.method == "GET":
        return redirect(_next_target())
    form = LoginForm()
    if request.method == "GET":
        form.next.data = safe_next_url(request.args.get("next")) or ""
    error: str | None = None
    if form.validate_on_submit():
        try:
            user = authenticate(form.username.data or "", form.password.data or "", client_ip())
        except ServiceError as refused:
            db.session.commit()  # keep the record of the failed attempt
            error = refused.message
        else:
            db.session.commit()
            start_session(user)
            return redirect(_next_target())
    status = 200 if request.method == "GET" else 422
    return render_template("auth/login.html", form=form, error=error), status


@bp.post("/logout")
def logout() -> Response:
    form = LogoutForm()
    if form.validate_on_submit():
        lang = session.get("lang")
        logout_user()
        session.clear()
        if lang:
            session["lang"] = lang
        flash(_("You are logged out."), "info")
    return redirect(url_for("main.home"))


@bp.route("/password", methods=["GET", "POST"])
@login_required
def password() -> ResponseReturnValue:
    form = ChangePasswordForm()
    if form.validate_on_submit():
        user: User = current_user._get_current_object()  # type: ignore[attr-defined]
        try:
            change_password(user, form.current_password.data or "", form.new_password.data or "")
        except ServiceError as error:
            db.session.rollback()
            show_service_error(form, error)
        else:
            db.session.commit()
            start_session(user)  # this session stays; all others end
            flash(_("Your password is changed. Other devices are logged out."), "success")
            return redirect(url_for("main.home"))
    status = 200 if request.method == "GET" else 422
    return render_template("auth/password.html", form=form), status
