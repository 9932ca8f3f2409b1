// test support -> an App for a test's own synthesis of a stack or of the app: as `cdk synth` builds one, less
// CDK's built-in CloudFormation validation. That validation cannot fail a synthesis of this app (its findings
// are warnings: cdk.json sets neither @aws-cdk/core:validateAgainstDefaultRules nor
// @aws-cdk/core:strictCfnValidateErrors), and starting its rule engine took about 7 s of CPU in every test file
// that synthesised anything. The app's shared syntheses (./synth.ts synthServiceApp) run it, as `cdk synth` does.
import { App, type AppProps } from 'aws-cdk-lib';

export const testApp = (props: AppProps = {}): App =>
  new App({ ...props, builtinCloudFormationValidation: false });
