export { Avatar } from "./Avatar.tsx";
export { Badge, type BadgeTone } from "./Badge.tsx";
export { Button, ButtonLink, buttonClasses, type ButtonProps } from "./Button.tsx";
export { Card, CardBody } from "./Card.tsx";
export { Container } from "./Container.tsx";
export { FieldError, FormAlert, SelectField, TextField } from "./Field.tsx";
export { Input, NativeSelect } from "./Input.tsx";
export { Label } from "./Label.tsx";
export { PageSpinner, Spinner } from "./Spinner.tsx";
