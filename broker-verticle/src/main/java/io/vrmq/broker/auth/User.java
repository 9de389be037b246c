package io.vrmq.broker.auth;

/**
 * A user of ACL 2.0. The password is the HMAC key the client signs with, so it is kept as given (as Apache does);
 * {@link #toString()} leaves it out so that it never reaches a log.
 */
public record User(String username, String password, UserType userType, UserStatus userStatus) {
    public boolean isSuper() {
        return userType == UserType.SUPER;
    }

    public boolean isDisabled() {
        return userStatus == UserStatus.DISABLE;
    }

    @Override
    public String toString() {
        return "User[" + username + ", " + userType + ", " + userStatus + "]";
    }
}
