import { OTP_LENGTH } from "@cartner/contract"; const x: number = OTP_LENGTH; console.log(x);
